/**
 * The change feed's reading side (DECISIONS 14): `GET /v1/calendars/{id}/changes`.
 *
 * Changes are numbered per revision shard (domain/commands/changes.ts), so a cursor is the
 * vector of the reader's position on each of the calendar's shards, with the calendar's id
 * and the instant it was given out. A read takes the shards' counters and the changes up to
 * them in one store transaction: one consistent cut of every shard, answered (on SQLite) only
 * once the writes it saw are committed. Within a shard, numbers follow commit order, so
 * "every change after my position" never skips one that commits late; across shards there is
 * no order to race on. The answer's `seq` is the reader's count of changes passed: the sum of
 * the positions after each change, so it rises by one per change in the order the reader sees
 * them (two readers may number the same change differently).
 *
 * Long-poll: with `wait`, an empty read waits for a change of this calendar signalled in this
 * process (domain/change-signals.ts) or for the next poll of the store, until the time passes.
 */
import type { Transaction } from "../../storage/port.js";
import { nextSignal } from "../change-signals.js";
import type { Deps } from "../deps.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import type { ChangeRecord } from "../records.js";
import { CHANGE_RETENTION_MS } from "../retention.js";
import { SHARDS } from "../revision.js";

export const MAX_WAIT_SECONDS = 60;
/** How often a waiting request reads the store when no signal came (changes written by other instances). */
export const CHANGE_POLL_MS = 1_000;
/** After a signal that found nothing yet (the write had not committed), the next looks come sooner. */
const RECHECKS_MS = [20, 50, 100, 200, 400];

export interface ChangePage {
  /** In the order the reader sees them; `seq` rises by one per change. */
  changes: Array<{ seq: number; change: ChangeRecord }>;
  cursor: string;
}

interface Cursor {
  calendarId: string;
  /** When it was given out, epoch milliseconds. */
  issued: number;
  /** The reader's position on each shard: the number of the last change it has seen there. */
  positions: number[];
}

export interface ChangeQuery {
  cursor?: string;
  limit: number;
  /** Seconds to hold an empty answer for a change (0..60). */
  wait: number;
}

/**
 * Without a cursor: no changes and the current cursor. With one: the changes after it, at
 * most `limit`, waiting up to `wait` seconds for the first (less under the deployment's limits,
 * `changeFeedLimits`). 410 cursor_expired for a cursor older than the retention, or behind a
 * change already purged.
 */
export async function readChanges(deps: Deps, calendarId: string, query: ChangeQuery): Promise<ChangePage> {
  if (query.cursor === undefined) {
    const counters = await deps.store.runTransaction((tx) => readCounters(tx, calendarId));
    return { changes: [], cursor: encodeCursor({ calendarId, issued: deps.clock().getTime(), positions: counters }) };
  }
  const from = decodeCursor(query.cursor, calendarId);
  if (deps.clock().getTime() - from.issued > CHANGE_RETENTION_MS) throw errors.cursorExpired();

  const holdMs = holdFor(query.wait);
  const deadline = performance.now() + holdMs;
  const holding = holdMs > 0;
  if (holding) waiters += 1;
  try {
    let rechecks = 0;
    for (;;) {
      const page = await deps.store.runTransaction((tx) => readPage(tx, deps, calendarId, from, query.limit));
      const left = deadline - performance.now();
      if (page.changes.length > 0 || left <= 0) return page;
      const pause = rechecks > 0 ? RECHECKS_MS[RECHECKS_MS.length - rechecks] : CHANGE_POLL_MS;
      rechecks = Math.max(0, rechecks - 1);
      if (await nextSignal(calendarId, Math.min(left, pause))) rechecks = RECHECKS_MS.length;
    }
  } finally {
    if (holding) waiters -= 1;
  }
}

/** Requests of this process holding for a change now. */
let waiters = 0;

/**
 * How long a request may hold: `wait`, within what the deployment allows. Deployed (the
 * function's timeout is known), the answer must leave before the function's timeout and
 * Hosting's 60 s limit on a rewrite, with 5 s to spare; and at most half of an instance's
 * concurrency may hold at once, so waiting requests never take all of it (beyond that the
 * answer comes at once and the client asks again).
 */
function holdFor(waitSeconds: number): number {
  const limits = changeFeedLimits();
  if (waiters >= limits.maxWaiters) return 0;
  return Math.min(waitSeconds, limits.maxHoldSeconds) * 1000;
}

export interface ChangeFeedLimits {
  maxHoldSeconds: number;
  maxWaiters: number;
}

/** From the deployed function's options (functions/src/index.ts reads the same variables). */
export function changeFeedLimits(env: NodeJS.ProcessEnv = process.env): ChangeFeedLimits {
  const timeout = Number(env.ALMANAC_TIMEOUT_SECONDS);
  const concurrency = Number(env.ALMANAC_CONCURRENCY);
  return {
    maxHoldSeconds: Number.isFinite(timeout) && timeout > 0 ? Math.max(0, Math.min(timeout, 60) - 5) : MAX_WAIT_SECONDS,
    maxWaiters: Number.isFinite(concurrency) && concurrency > 0 ? Math.floor(concurrency / 2) : Infinity,
  };
}

/** Each shard's last change number; shards never written count 0. */
async function readCounters(tx: Transaction, calendarId: string): Promise<number[]> {
  const counters: number[] = new Array<number>(SHARDS).fill(0);
  for (const doc of await tx.query(paths.shards(calendarId))) {
    const n = Number(doc.id);
    if (n >= 0 && n < SHARDS) counters[n] = doc.data.change_seq ?? 0;
  }
  return counters;
}

/**
 * One consistent cut: the counters, then on each shard the changes after the reader's
 * position up to its counter (at most `limit`), merged by time (then shard) keeping each
 * shard's order, and the first `limit` taken.
 */
async function readPage(
  tx: Transaction,
  deps: Deps,
  calendarId: string,
  from: Cursor,
  limit: number,
): Promise<ChangePage> {
  const counters = await readCounters(tx, calendarId);
  if (counters.some((c, n) => c < from.positions[n])) throw errors.badChangeCursor(); // ahead of the calendar: not given out here
  const now = deps.clock();
  const perShard = await Promise.all(
    counters.map(async (counter, n) => {
      const after = from.positions[n];
      const want = Math.min(limit, counter - after);
      if (want === 0) return [];
      const docs = await tx.query(paths.changes(calendarId, n), {
        orderBy: [["seq", "asc"]],
        startAfter: after,
        limit: want,
      });
      // Numbers have no gaps: a missing one was purged before this reader saw it.
      if (docs.length !== want || docs.some((d, i) => d.data.seq !== after + 1 + i)) throw errors.cursorExpired();
      if (docs[0].data.purge_at.getTime() <= now.getTime()) throw errors.cursorExpired();
      return docs.map((d) => d.data);
    }),
  );

  const positions = [...from.positions];
  let seq = positions.reduce((a, b) => a + b, 0);
  const changes: ChangePage["changes"] = [];
  const heads = perShard.map(() => 0);
  while (changes.length < limit) {
    let pick = -1;
    for (let n = 0; n < SHARDS; n++) {
      const head = perShard[n][heads[n]];
      if (head && (pick < 0 || head.at < perShard[pick][heads[pick]].at)) pick = n;
    }
    if (pick < 0) break;
    const change = perShard[pick][heads[pick]++];
    positions[pick] = change.seq;
    changes.push({ seq: ++seq, change });
  }
  return { changes, cursor: encodeCursor({ calendarId, issued: now.getTime(), positions }) };
}

/** base64url JSON `[calendarId, issued, positions]`: opaque to clients. */
function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.calendarId, cursor.issued, cursor.positions])).toString("base64url");
}

/** A cursor this calendar's feed gave out, or 400 invalid_request (`field: cursor`). */
function decodeCursor(text: string, calendarId: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw errors.badChangeCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw errors.badChangeCursor();
  const [id, issued, positions] = parsed as unknown[];
  const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
  if (
    id !== calendarId ||
    !count(issued) ||
    !Array.isArray(positions) ||
    positions.length !== SHARDS ||
    !positions.every(count)
  ) {
    throw errors.badChangeCursor();
  }
  return { calendarId, issued, positions };
}
