/**
 * The steps of a feed's refresh (docs/decisions/feeds.md), each in the transaction the feeds
 * job (jobs/feeds.ts) opens and hands it: claim the feed, write a batch of the new copy's
 * events, record how the fetch went. The fetch itself, and the reading of the text, happen
 * between them, in no transaction.
 */
import type { Transaction } from "../../storage/port.js";
import { recordChange } from "../commands/changes.js";
import { removeFeedCalendar } from "../commands/layers.js";
import type { CommandDeps } from "../deps.js";
import { paths } from "../paths.js";
import type { CalendarRecord } from "../records.js";
import { drawShard, touchShard } from "../revision.js";
import { MAX_CALENDAR_NAME, MAX_ERROR_LENGTH } from "./limits.js";
import type { FeedRecord } from "./records.js";

export type FeedClaim =
  /** The feed is this pass's to fetch until its `due_at`, with the feed calendar in the host's zone. */
  | { kind: "claimed"; feed: FeedRecord; calendar: CalendarRecord }
  /** Detached, or no longer due (another pass took it). */
  | { kind: "gone" }
  /** Its host or layer had gone (a deleted host): the feed calendar is queued for the purge. */
  | { kind: "removed" };

/**
 * Takes a due feed for one fetch: moves `due_at` to when the claim lapses, so no other pass
 * fetches it meanwhile, and a fetch that never reports back (a crash) is tried again then. A
 * feed whose host was deleted (its layer purged) leaves here, as a detach would remove it.
 */
export async function claimFeed(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  feedCalendarId: string,
  claimMs: number,
): Promise<FeedClaim> {
  const doc = await tx.get(paths.feed(feedCalendarId));
  const now = deps.clock();
  if (!doc || Date.parse(doc.data.due_at) > now.getTime()) return { kind: "gone" };
  const feed = doc.data;
  const [host, calendar, layer] = await Promise.all([
    tx.get(paths.calendar(feed.host_calendar_id)),
    tx.get(paths.calendar(feedCalendarId)),
    tx.get(paths.layer(feed.host_calendar_id, feed.layer_id)),
  ]);
  if (!host || !calendar || !layer) {
    removeFeedCalendar(tx, deps, feedCalendarId);
    return { kind: "removed" };
  }
  const claimed: Partial<FeedRecord> = { due_at: new Date(now.getTime() + claimMs).toISOString() };
  // Imported times are read in the host's zone (docs/decisions/feeds.md): in a new zone the
  // copy is read again whole, its validators forgotten until a fetch has stored it anew.
  if (calendar.data.timezone !== host.data.timezone) {
    tx.update(calendar.path, { timezone: host.data.timezone, updated_at: now.toISOString() });
    Object.assign(claimed, { etag: null, last_modified: null });
  }
  tx.update(doc.path, claimed);
  return {
    kind: "claimed",
    feed: { ...feed, ...claimed },
    calendar: { ...calendar.data, timezone: host.data.timezone },
  };
}

/**
 * A due feed whose tenant has had its share of this pass goes to the back of the queue (due
 * now, behind every feed that fell due before), so that one tenant's many feeds never hold the
 * head of the queue against another's (jobs/feeds.ts). Unless another pass took it meanwhile.
 */
export async function deferFeed(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  feedCalendarId: string,
  dueAt: string,
): Promise<void> {
  const doc = await tx.get(paths.feed(feedCalendarId));
  if (doc?.data.due_at === dueAt) tx.update(doc.path, { due_at: deps.clock().toISOString() });
}

/** What a batch of the copy wrote. */
export interface BatchCounts {
  created: number;
  updated: number;
  deleted: number;
}

/**
 * One batch of a new copy, written by `write` (the import's own step) in this transaction, with
 * a `layer.refreshed` change on the host when it changed anything: the host's change feed and
 * webhooks say that its layer's events moved. Null when the feed was detached meanwhile, so
 * nothing is written into a calendar on its way to the purge.
 */
export async function writeFeedBatch(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config" | "memory">,
  feed: Pick<FeedRecord, "calendar_id" | "host_calendar_id" | "layer_id">,
  write: () => Promise<BatchCounts>,
): Promise<BatchCounts | null> {
  const [current, shard] = await Promise.all([
    tx.get(paths.feed(feed.calendar_id)),
    drawShard(tx, feed.host_calendar_id, deps.config.revisionShards),
  ]);
  if (!current) return null;
  const counts = await write();
  if (counts.created + counts.updated + counts.deleted > 0) {
    recordChange(tx, deps, feed.host_calendar_id, shard, { type: "layer.refreshed", id: feed.layer_id });
    touchShard(tx, shard);
  }
  return counts;
}

/** How a fetch ended: worked (with the new copy's validators and size, when it brought one), or why not. */
export type FetchReport =
  | {
      worked: true;
      copy: { etag: string | null; last_modified: string | null; event_count: number } | null;
      /** The copy's own name for its calendar (X-WR-CALNAME), which the feed calendar takes. */
      name?: string | null;
    }
  | { worked: false; error: string };

/**
 * Records a fetch's end on the feed and sets the next one `refresh_minutes` on. A failure keeps
 * the last good copy (its events, validators and count) and says why in `last_error`.
 */
export async function recordFetch(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  feedCalendarId: string,
  report: FetchReport,
): Promise<void> {
  const name = report.worked ? report.name?.slice(0, MAX_CALENDAR_NAME) : undefined;
  // A 304 or a failure brings no name: the calendar is read only for a copy that named itself.
  const [doc, calendar] = await Promise.all([
    tx.get(paths.feed(feedCalendarId)),
    name ? tx.get(paths.calendar(feedCalendarId)) : null,
  ]);
  if (!doc) return;
  const now = deps.clock();
  if (calendar && name && name !== calendar.data.name) {
    tx.update(calendar.path, { name, updated_at: now.toISOString() });
  }
  tx.update(doc.path, {
    due_at: new Date(now.getTime() + doc.data.refresh_minutes * 60_000).toISOString(),
    last_fetched_at: now.toISOString(),
    last_error: report.worked ? null : shortened(report.error),
    ...(report.worked && report.copy ? report.copy : {}),
  });
}

const shortened = (text: string): string =>
  text.length <= MAX_ERROR_LENGTH ? text : `${text.slice(0, MAX_ERROR_LENGTH - 1)}…`;
