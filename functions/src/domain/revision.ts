/**
 * Revisions: what a calendar shows changes with its settings and with its events, and a
 * rendered response is cached under the revisions it was computed from (http/response-cache.ts).
 *
 * Settings changes are rare and bump the calendar record's own `revision`. Event writes are
 * frequent and must not all queue on one document (Firestore sustains about one write per
 * second per document, and a transaction that writes a document waits for every other
 * transaction holding it), so each event write lands on one of a few small documents (a
 * deployment setting, `deps.config.revisionShards`, 8 by default), `calendars/{id}/shards/{n}`, chosen at random: a new
 * revision token and its share of the calendar's event count. Concurrent writes to one calendar meet on a document only when they
 * draw the same shard. A calendar's full revision is its own plus its shards'.
 */
import type { DocRef, Store, Transaction, TransactionReads } from "../storage/port.js";
import type { Actor } from "./actor.js";
import type { Deps } from "./deps.js";
import { randomString, sha256 } from "./ids.js";
import { keptRevisions } from "./kept-revisions.js";
import { paths } from "./paths.js";
import type { ShardRecord } from "./records.js";
import { leaseShard } from "./shard-leases.js";

/**
 * The revision shards per calendar when the deployment sets none. The count in use is
 * `deps.config.revisionShards` (`ALMANAC_REVISION_SHARDS`, read at start by functions/src/config.ts):
 * more lets more writes to one calendar commit at once (Firestore sustains about one write a
 * second per document), but every cached read and the change feed's watcher read each shard.
 */
export const DEFAULT_SHARDS = 8;

export const newRevision = (): string => randomString(12);

/** The shard a calendar starts with, written with the calendar. */
export const firstShard = (calendarId: string): { path: DocRef<ShardRecord>; data: ShardRecord } => ({
  path: paths.shard(calendarId, 0),
  data: { revision: newRevision(), event_count: 0 },
});

export interface DrawnShard {
  path: DocRef<ShardRecord>;
  /** Which shard (0 to the shard count - 1): the change feed numbers changes per shard (domain/commands/changes.ts). */
  index: number;
  count: number;
  /** The number of the shard's last change; recordChange raises it, touchShard writes it. */
  changeSeq: number;
  /** Written: a change recorded after touchShard would be lost, so recordChange refuses. */
  touched?: boolean;
  /** The webhook outbox entry of this shard is set in this transaction (recordChange, once). */
  outboxed?: boolean;
  /** The shard's share of the calendar's events with an alarm ahead (domain/alarms/quota.ts). */
  alarmEvents: number;
  /** What this transaction moves that share by (the alarm queue's writes); touchShard writes it. */
  alarmDelta?: number;
}

/**
 * Draws the shard an event write lands on, one of `shards` (`deps.config.revisionShards`), and
 * reads it in the write's transaction (reads come first): one no other write of this instance
 * holds, when the transaction takes leases (domain/shard-leases.ts), else one at random.
 */
export async function drawShard(tx: Transaction, calendarId: string, shards: number): Promise<DrawnShard> {
  const leased = await leaseShard(tx, calendarId, shards);
  return readShard(tx, calendarId, leased ?? Math.floor(Math.random() * shards));
}

/** Reads shard `index` of a calendar in a transaction, for a write to land on it. */
export async function readShard(reads: TransactionReads, calendarId: string, index: number): Promise<DrawnShard> {
  const path = paths.shard(calendarId, index);
  const stored = await reads.get(path);
  return {
    path,
    index,
    count: stored?.data.event_count ?? 0,
    changeSeq: stored?.data.change_seq ?? 0,
    alarmEvents: stored?.data.alarm_event_count ?? 0,
  };
}

/** Gives the shard a new revision and moves the calendar's event count by `delta` (and its events with alarms by `alarmDelta`). */
export function touchShard(tx: Transaction, shard: DrawnShard, delta = 0): void {
  const alarmEvents = shard.alarmEvents + (shard.alarmDelta ?? 0);
  tx.set(shard.path, {
    revision: newRevision(),
    event_count: shard.count + delta,
    change_seq: shard.changeSeq,
    ...(alarmEvents !== 0 ? { alarm_event_count: alarmEvents } : {}),
  });
  shard.touched = true;
}

/**
 * The shards of a calendar, read outside any transaction: reading every shard inside an event
 * write would hold them all and queue the writes again. Null when the calendar has none
 * (written before shards existed).
 */
export async function readShards(store: Store, calendarId: string): Promise<ShardRecord[] | null> {
  const docs = await store.query(paths.shards(calendarId));
  return docs.length > 0 ? docs.sort((a, b) => (a.id < b.id ? -1 : 1)).map((d) => d.data) : null;
}

/**
 * How current the shard revisions a cache key is built from must be. `current`: read now, for
 * every read made with a token (an agent that may just have written, through any instance).
 * `recent`: for anonymous reads (pages, feeds, lists without a token), the revisions this
 * instance read at most KEPT_REVISIONS_MS ago, unless it has recorded a change of the calendar
 * since (domain/kept-revisions.ts): up to that long behind a write made on another instance.
 */
export type Freshness = "current" | "recent";

/** The freshness an answer to `actor` needs: `recent` only without a token. */
export const freshnessFor = (actor: Actor | null): Freshness => (actor === null ? "recent" : "current");

type RevisionDeps = Pick<Deps, "store" | "memory" | "clock">;

/** A calendar's shards for a cache key, as current as `freshness` asks (see `Freshness`). */
export function shardsFor(deps: RevisionDeps, calendarId: string, freshness: Freshness): Promise<ShardRecord[] | null> {
  if (freshness === "current") return readShards(deps.store, calendarId);
  return keptRevisions(deps.memory).shards(calendarId, deps.clock().getTime(), () =>
    readShards(deps.store, calendarId),
  );
}

/**
 * The cache key part of a set of calendars shown together: a hash of each one's layer key, id,
 * revision and shards' revisions. One query per calendar, all at once (none for a calendar
 * whose revisions `recent` finds kept). Hashed, so that a key stays under the cache's length
 * limit however many layers a calendar shows (unhashed, a dozen layers made every key too long
 * to keep, and each request computed its answer again).
 */
export async function revisionsKey(
  deps: RevisionDeps,
  sources: Array<{ layer: string; calendar: { id: string; revision: string } }>,
  freshness: Freshness,
): Promise<string> {
  return (await sourcesRevisions(deps, sources, freshness)).key;
}

/**
 * `revisionsKey` and, from the same shards, the events they count in all (null when a calendar
 * has no shards, so its events were never counted): a feed whose events all fit its budget
 * reads the same whatever the date (pages/feeds.ts).
 */
export async function sourcesRevisions(
  deps: RevisionDeps,
  sources: Array<{ layer: string; calendar: { id: string; revision: string } }>,
  freshness: Freshness,
): Promise<{ key: string; events: number | null }> {
  const shards = await Promise.all(sources.map((s) => shardsFor(deps, s.calendar.id, freshness)));
  const revisions = sources
    .map(
      (s, i) =>
        `${s.layer}:${s.calendar.id}:${s.calendar.revision}.${(shards[i] ?? []).map((x) => x.revision).join(".")}`,
    )
    .join(",");
  const events = shards.every((s) => s !== null)
    ? shards.flat().reduce((sum, shard) => sum + shard.event_count, 0)
    : null;
  return { key: sha256(revisions), events };
}
