import type { StoredDoc, Transaction } from "../storage/port.js";
import type { Deps } from "./deps.js";
import { errors } from "./errors.js";
import { randomSlugSuffix } from "./ids.js";
import { paths } from "./paths.js";
import { quotaLimits } from "./quotas.js";
import type { AgentCounters, AgentRecord, SlugRecord } from "./records.js";

export const SLUG_PATTERN = /^[a-z0-9-]{3,63}$/;
const BASE_LENGTH = 50;
const SUGGESTIONS = 3;

/** "Launch Plan Q3" -> "launch-plan-q3" (docs/api.md#calendars-and-slugs). */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, BASE_LENGTH)
    .replace(/-+$/g, "");
}

const withSuffix = (base: string): string => (base ? `${base}-${randomSlugSuffix(4)}` : randomSlugSuffix(6));

/**
 * Chooses a free slug inside the transaction. A requested slug that is taken (by another
 * calendar, now or ever) is 409 slug_taken with suggestions checked to be free; a
 * generated one gets a random suffix. `collection` is `slugs` for calendars, `view_slugs` for views.
 */
export async function claimSlug(
  tx: Transaction,
  collection: "slugs" | "view_slugs",
  opts: { requested?: string; name: string; ownerId: string },
): Promise<string> {
  const base = slugify(opts.name);
  const first = opts.requested ?? (base.length >= 3 ? base : withSuffix(base));
  const candidates = [first, ...Array.from({ length: SUGGESTIONS + 2 }, () => withSuffix(opts.requested ?? base))];
  const slugPath = collection === "slugs" ? paths.slug : paths.viewSlug;
  const docs = await tx.getAll(candidates.map(slugPath));
  const isFree = (i: number) => !docs[i] || docs[i].data.owner_id === opts.ownerId;
  if (isFree(0)) return first;
  const free = candidates.filter((_, i) => i > 0 && isFree(i));
  if (opts.requested === undefined && free.length > 0) return free[0];
  throw errors.slugTaken(first, free.slice(0, SUGGESTIONS));
}

/**
 * Slug reservations are bounded per agent (docs/api.md#calendars-and-slugs). A slug a calendar
 * leaves (a PATCH of `slug`), and the one it holds when deleted, is retired: it stays the
 * calendar's (an old address redirects, or stays 404 once the calendar is deleted) and is
 * charged to the calendar's creator, counted on the agent's record (`retired_slug_count`).
 * Past retired_slugs_per_agent, the agent's oldest retired slug is released (its record
 * deleted: its address answers 404 and anyone may take it), so no write is refused, and
 * however many calendars an agent creates, renames and deletes, the slugs held for it are its
 * live calendars' current slugs and at most that many more. Taking an old slug back un-retires
 * it (the creator's count goes down as the slug left goes up).
 */
export interface SlugRetirement {
  /** The counter update of the charged agent, for the caller to write with its own update of that record. */
  agentUpdate: Partial<AgentCounters>;
  /** The slug records' writes (and another agent's counter, when the slug taken back was charged to it). */
  write(): void;
  /** Slugs released to stay within the bound. */
  released: string[];
}

/** At most this many retired slugs are released in one write (more only when the bound was lowered). */
const MAX_RELEASED_PER_WRITE = 100;

/**
 * Reads, in `tx`, what retiring `leaving` does, and answers the writes: call it before any
 * write of the transaction, and `write()` after. `agent` is the charged agent's record as the
 * caller read it (null when the calendar has no known creator: the slug is retired uncharged);
 * `reclaimed` the record of a retired slug the calendar takes back in the same write.
 */
export async function retireSlug(
  tx: Transaction,
  deps: Pick<Deps, "config" | "clock">,
  input: {
    leaving: string;
    agent: StoredDoc<AgentRecord> | null;
    reclaimed?: { slug: string; record: Readonly<SlugRecord> } | null;
  },
): Promise<SlugRetirement> {
  const { leaving, agent, reclaimed } = input;
  const now = deps.clock().toISOString();
  const chargedTo = agent?.id;
  const back = reclaimed?.record.retired_by ? reclaimed : null;
  // A slug taken back that another agent's count holds: that count goes down.
  const otherRetirer =
    back && back.record.retired_by !== chargedTo ? await tx.get(paths.agent(back.record.retired_by!)) : null;
  let count = (agent?.data.retired_slug_count ?? 0) + (agent ? 1 : 0);
  if (back && agent && back.record.retired_by === chargedTo) count -= 1;
  const limit = quotaLimits(deps).retired_slugs_per_agent;
  const over = Math.min(MAX_RELEASED_PER_WRITE, Math.max(0, count - limit));
  const oldest =
    agent && over > 0
      ? await tx.query(paths.slugs(), {
          where: [["retired_by", "==", agent.id]],
          orderBy: [["retired_at", "asc"]],
          limit: over + 1,
        })
      : [];
  const released = oldest
    .map((doc) => doc.id)
    .filter((slug) => slug !== reclaimed?.slug && slug !== leaving)
    .slice(0, over);
  count -= released.length;
  return {
    agentUpdate: agent ? { retired_slug_count: Math.max(0, count) } : {},
    released,
    write: () => {
      tx.update(paths.slug(leaving), chargedTo ? { retired_at: now, retired_by: chargedTo } : { retired_at: now });
      for (const slug of released) tx.delete(paths.slug(slug));
      if (otherRetirer) {
        const stored = otherRetirer.data.retired_slug_count;
        if (typeof stored === "number") tx.update(otherRetirer.path, { retired_slug_count: Math.max(0, stored - 1) });
      }
    },
  };
}
