import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { paths } from "../paths.js";
import { authorizeCalendarCreation, authorizePublishing, viewLayerCalendars } from "../policy.js";
import { releaseQuota, takeQuota, writeCounter } from "../quotas.js";
import { drawShard, newRevision, touchShard } from "../revision.js";
import { claimSlug, retireSlug, type SlugRetirement } from "../slugs.js";
import type { AgentRecord, CalendarRecord } from "../records.js";
import type { Lens } from "../types.js";
import type { StoredDoc, Transaction } from "../../storage/port.js";
import { createCalendarInTx, type NewCalendar } from "./create-calendar.js";
import { readAgent } from "./identity.js";
import { recordChange } from "./changes.js";

/** Any of the creation fields; null clears purpose and default_view, and null or [] views mean all lenses. */
export type CalendarPatch = Partial<NewCalendar>;

const invalid = (field: string, message: string) => errors.invalidField("invalid_request", field, message);

/** `views` null or [] means every lens; when it is set, `default_view` must be one of them. */
function checkLenses(views: Lens[] | null, defaultView: Lens | null, blame: "views" | "default_view"): void {
  if (views && new Set(views).size !== views.length) throw invalid("views", "must list each lens at most once");
  if (views && defaultView && !views.includes(defaultView)) {
    throw invalid(
      blame,
      `leaves \`default_view\` (${defaultView}) outside \`views\` (${views.join(", ")}); ` +
        "make default_view one of views, or send `default_view: null`",
    );
  }
}

const normalizeViews = (views: Lens[] | null | undefined): Lens[] | null => (views && views.length > 0 ? views : null);

/**
 * POST /v1/calendars: the calendar, its slug and the caller's owner grant, written in the
 * caller's transaction with the agent's counter, so the quota it takes holds.
 */
export async function createCalendar(
  tx: Transaction,
  deps: CommandDeps,
  actor: Actor,
  input: NewCalendar,
): Promise<CalendarRecord> {
  authorizeCalendarCreation(actor);
  checkLenses(normalizeViews(input.views), input.default_view ?? null, "default_view");
  const nowIso = deps.clock().toISOString();
  const agent = await readAgent(tx, actor.agentId);
  const counted = await takeQuota(deps, tx, "calendars_per_agent", agent);
  const { calendar } = await createCalendarInTx(tx, actor, input, nowIso);
  writeCounter(tx, agent.path, counted);
  return calendar;
}

/**
 * PATCH /v1/calendars/{id} (owner; checked by the route). A new slug is claimed in the same
 * transaction; the old slug documents stay, owned by this calendar forever, so old
 * addresses can redirect and the calendar can take an old slug back. A slug the calendar never
 * held counts against its slug quota; taking an old one back is free.
 */
export async function updateCalendar(
  tx: Transaction,
  deps: CommandDeps,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  patch: CalendarPatch,
): Promise<CalendarRecord> {
  const nowIso = deps.clock().toISOString();
  // The shard carries the change feed's number for this change (domain/commands/changes.ts).
  const [doc, shard] = await Promise.all([
    tx.get(paths.calendar(calendarId)),
    drawShard(tx, calendarId, deps.config.revisionShards),
  ]);
  if (!doc) throw errors.notFound("calendar");
  const current = doc.data;
  const next: CalendarRecord = {
    ...current,
    name: patch.name ?? current.name,
    timezone: patch.timezone ?? current.timezone,
    visibility: patch.visibility ?? current.visibility,
    purpose: patch.purpose !== undefined ? patch.purpose : current.purpose,
    default_view: patch.default_view !== undefined ? patch.default_view : current.default_view,
    views: patch.views !== undefined ? normalizeViews(patch.views) : current.views,
    ...(patch.categories !== undefined ? { categories: patch.categories } : {}),
    ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
  };
  checkLenses(next.views, next.default_view, patch.default_view !== undefined ? "default_view" : "views");
  if (current.visibility === "private" && next.visibility !== "private" && actor.calendars !== null) {
    const layers = await tx.query(paths.layers(calendarId));
    authorizePublishing(
      actor,
      viewLayerCalendars(
        null,
        layers.map((l) => l.data),
      ),
    );
  }

  const newSlug = patch.slug !== undefined && patch.slug !== current.slug;
  let slugIsNew = false;
  let retirement: SlugRetirement | null = null;
  let creator: StoredDoc<AgentRecord> | null = null;
  if (newSlug) {
    next.slug = await claimSlug(tx, "slugs", { requested: patch.slug, name: next.name, ownerId: current.id });
    // Either a slug no calendar ever held, or one of this calendar's own earlier slugs.
    const held = await tx.get(paths.slug(next.slug));
    slugIsNew = held === null;
    if (slugIsNew) Object.assign(next, await takeQuota(deps, tx, "slugs_per_calendar", doc));
    // The slug it leaves stays its own, charged to its creator's retired slugs (domain/slugs.ts).
    creator = await readCreator(tx, current);
    const reclaimed = held ? { slug: next.slug, record: held.data } : null;
    retirement = await retireSlug(tx, deps, { leaving: current.slug, agent: creator, reclaimed });
  }

  const changed = (Object.keys(next) as Array<keyof CalendarRecord>).some(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]),
  );
  if (!changed) return current;
  next.updated_at = nowIso;
  next.revision = newRevision();
  tx.set(doc.path, next);
  if (slugIsNew) tx.create(paths.slug(next.slug), { owner_id: current.id });
  // An old slug taken back is current again: no longer retired.
  else if (newSlug) tx.set(paths.slug(next.slug), { owner_id: current.id });
  if (retirement) {
    retirement.write();
    if (creator) writeCounter(tx, creator.path, retirement.agentUpdate);
  }
  // Every alarm instant moves with the zone: the queued ones are recomputed (domain/alarms/requeue.ts).
  if (next.timezone !== current.timezone) {
    tx.set(paths.alarmRequeue(calendarId), { calendar_id: calendarId, requested_at: nowIso, after_event_id: null });
  }
  recordChange(tx, deps, calendarId, shard, { type: "calendar.updated", id: calendarId });
  touchShard(tx, shard);
  return next;
}

/**
 * DELETE /v1/calendars/{id} (owner; checked by the route): removes the calendar record, so every
 * read that starts from it (API, pages, feeds, share views, hosts' layers) finds nothing from
 * this commit on, and queues the rest of its documents for the purge (domain/purge/). Its slug
 * documents stay, its current slug retired and charged to its creator (domain/slugs.ts): an old
 * address never reaches another calendar while it is reserved. Its creator's calendar slot
 * comes back at once (on calendars older than `created_by`, the first grant's agent).
 */
export async function deleteCalendar(tx: Transaction, deps: CommandDeps, calendarId: string): Promise<void> {
  const calendar = await tx.get(paths.calendar(calendarId));
  if (!calendar) throw errors.notFound("calendar");
  const creator = await readCreator(tx, calendar.data);
  const retirement = await retireSlug(tx, deps, { leaving: calendar.data.slug, agent: creator });
  tx.delete(calendar.path);
  tx.create(paths.calendarPurge(calendarId), { calendar_id: calendarId, deleted_at: deps.clock().toISOString() });
  retirement.write();
  if (creator)
    writeCounter(tx, creator.path, { ...releaseQuota("calendars_per_agent", creator), ...retirement.agentUpdate });
}

/** The agent that created the calendar: `created_by`, or on older calendars the agent of its first grant. */
async function readCreator(
  tx: Transaction,
  calendar: Pick<CalendarRecord, "id" | "created_by">,
): Promise<StoredDoc<AgentRecord> | null> {
  const creatorId = calendar.created_by ?? (await firstGrantee(tx, calendar.id));
  return creatorId ? tx.get(paths.agent(creatorId)) : null;
}

/** The agent of a calendar's first grant: its creator's owner grant, written with it. */
async function firstGrantee(tx: Transaction, calendarId: string): Promise<string | undefined> {
  const [first] = await tx.query(paths.grants(calendarId), { orderBy: [["created_at", "asc"]], limit: 1 });
  return first?.data.agent_id;
}
