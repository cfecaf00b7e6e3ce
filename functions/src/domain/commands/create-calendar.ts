import type { Actor } from "../actor.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { newCalendarCounters } from "../quotas.js";
import { firstShard, newRevision } from "../revision.js";
import { claimSlug } from "../slugs.js";
import type { CalendarRecord, CategoryColours, GrantRecord, MembershipRecord } from "../records.js";
import type { Lens, Visibility } from "../types.js";
import type { Transaction } from "../../storage/port.js";

export interface NewCalendar {
  name: string;
  slug?: string;
  timezone?: string;
  visibility?: Visibility;
  purpose?: string | null;
  default_view?: Lens | null;
  views?: Lens[] | null;
  categories?: CategoryColours | null;
  locale?: string | null;
}

/**
 * Writes a calendar, its slug and its first owner's grant in the caller's transaction
 * (shared by mint and POST /v1/calendars). Reads happen first, as Firestore requires. The
 * creator's calendar quota is the caller's to take (a minted agent starts with this one).
 */
export async function createCalendarInTx(
  tx: Transaction,
  owner: Pick<Actor, "agentId" | "agentName">,
  input: NewCalendar,
  now: string,
): Promise<{ calendar: CalendarRecord; grant: GrantRecord }> {
  const id = newId("cal");
  const slug = await claimSlug(tx, "slugs", { requested: input.slug, name: input.name, ownerId: id });
  const views = input.views && input.views.length > 0 ? input.views : null;
  const calendar: CalendarRecord = {
    id,
    name: input.name,
    slug,
    timezone: input.timezone ?? "UTC",
    visibility: input.visibility ?? "unlisted",
    purpose: input.purpose ?? null,
    default_view: input.default_view ?? null,
    views,
    categories: input.categories ?? null,
    locale: input.locale ?? null,
    created_at: now,
    updated_at: now,
    created_by: owner.agentId,
    revision: newRevision(),
  };
  const grant: GrantRecord = {
    id: newId("grt"),
    calendar_id: id,
    agent_id: owner.agentId,
    agent_name: owner.agentName,
    role: "owner",
    created_at: now,
    updated_at: now,
    revoked_at: null,
  };
  const membership: MembershipRecord = { calendar_id: id, grant_id: grant.id, role: "owner" };
  // Its events will all store sort_key and their span: lists and ranges read only what they show.
  tx.create(paths.calendar(id), { ...calendar, ...newCalendarCounters(), event_sort_keys: true, event_spans: true });
  tx.create(paths.slug(slug), { owner_id: id });
  const shard = firstShard(id);
  tx.create(shard.path, shard.data);
  tx.create(paths.grant(id, grant.id), grant);
  tx.set(paths.membership(owner.agentId, id), membership);
  return { calendar, grant };
}
