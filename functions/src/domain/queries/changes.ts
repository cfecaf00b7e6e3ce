/**
 * The change feed's reading side (docs/api.md#change-feed): `GET /v1/calendars/{id}/changes`.
 *
 * Changes are numbered per revision shard (domain/commands/changes.ts), so a cursor is the
 * vector of the reader's position on each of the calendar's shards, with the calendar's id
 * and the instant it was given out. A read takes the shards' counters and the changes up to
 * them in one read-only store transaction: one consistent cut of every shard, of committed
 * writes only, holding no lock that would delay a writer. Within a shard, numbers follow
 * commit order, so "every change after my position" never skips one that commits late; across
 * shards there is no order to race on. The answer's `seq` is the reader's count of changes
 * passed: the sum of the positions after each change, so it rises by one per change in the
 * order the reader sees them (two readers may number the same change differently).
 *
 * Long-poll: with `wait`, an empty read waits until the calendar's watcher (one per calendar
 * and instance, domain/change-watch.ts) sees a counter past the reader's position, or the time
 * passes. Every read after a wait re-checks, in its own transaction, that the caller still may
 * read the calendar (`WaitGuard.stillAllowed`, judged before the page), so nothing written
 * after a revocation reaches a revoked reader; and a waiter whose client has gone stops at once.
 *
 * Cursors are signed: an HMAC-SHA-256 tag (16 bytes) under the server's key
 * (domain/cursor-key.ts) before the JSON, so only the server makes them; one issued later than
 * this instance's clock allows (beyond CURSOR_CLOCK_SKEW_MS) is refused as well.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { TransactionReads } from "../../storage/port.js";
import type { WaitGuard } from "../change-signals.js";
import { nextChange, readCounters } from "../change-watch.js";
import { MAX_WAIT_SECONDS, type ChangeFeedLimits } from "../config.js";
import type { Deps } from "../deps.js";
import { errors } from "../errors.js";
import type { ChangeRecord } from "../records.js";
import { CHANGE_RETENTION_MS } from "../retention.js";
import { readChangesAfter } from "./change-reader.js";

export { CHANGE_POLL_MS } from "../change-watch.js";

export { MAX_WAIT_SECONDS };
/** How far ahead of this instance's clock a cursor's `issued` may be: the instance that gave it out may run ahead. */
export const CURSOR_CLOCK_SKEW_MS = 60_000;
/** The HMAC-SHA-256 tag at the head of a cursor, truncated. */
const TAG_BYTES = 16;

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
 * `deps.config.changeFeed`); `key` signs the cursors (http/cursor-key.ts). 410 cursor_expired
 * for a cursor older than the retention, or behind a change already purged. `guard` comes from
 * the protocol layer: after any wait, the caller's access is judged again before the answer,
 * and the wait ends when the client goes.
 */
export async function readChanges(
  deps: Deps,
  calendarId: string,
  query: ChangeQuery,
  guard: WaitGuard,
  key: Buffer,
): Promise<ChangePage> {
  if (query.cursor === undefined) {
    const counters = await deps.store.runReadOnly((reads) =>
      readCounters(reads, calendarId, deps.config.revisionShards),
    );
    const cursor = encodeCursor({ calendarId, issued: deps.clock().getTime(), positions: counters }, key);
    return { changes: [], cursor };
  }
  const now = deps.clock().getTime();
  const from = decodeCursor(query.cursor, calendarId, key, now, deps.config.revisionShards);
  if (now - from.issued > CHANGE_RETENTION_MS) throw errors.cursorExpired();

  const holdMs = holdFor(query.wait, deps.config.changeFeed);
  const deadline = performance.now() + holdMs;
  const holding = holdMs > 0;
  if (holding) waiters += 1;
  try {
    // Where this reader is on each shard: an empty page means every counter is at the cursor.
    let known = from.positions;
    let waited = false;
    for (;;) {
      // The client has gone: nobody will read this answer, so nothing more is read for it.
      if (guard.signal.aborted) return { changes: [], cursor: query.cursor };
      const page = await deps.store.runReadOnly((reads) =>
        waited
          ? readAllowedPage(reads, guard, deps, calendarId, from, query.limit, key)
          : readPage(reads, deps, calendarId, from, query.limit, key),
      );
      const left = deadline - performance.now();
      if (page.changes.length > 0 || left <= 0) return page;
      const moved = await nextChange(deps, calendarId, known, left, guard.signal);
      // Woken by counters its own read then did not find: the next wait is for counters past those.
      if (moved) known = known.map((k, n) => Math.max(k, moved[n]));
      waited = true;
    }
  } finally {
    if (holding) waiters -= 1;
  }
}

/**
 * A read after a wait: the caller's access judged again in the page's own transaction (one
 * cut: no revocation can fall between the check and the changes), and its refusal answered
 * before anything the page itself would say (a revoked reader learns nothing of the cursor).
 */
async function readAllowedPage(
  reads: TransactionReads,
  guard: WaitGuard,
  deps: Deps,
  calendarId: string,
  from: Cursor,
  limit: number,
  key: Buffer,
): Promise<ChangePage> {
  const [allowed, page] = await Promise.allSettled([
    guard.stillAllowed(reads),
    readPage(reads, deps, calendarId, from, limit, key),
  ]);
  if (allowed.status === "rejected") throw allowed.reason;
  if (page.status === "rejected") throw page.reason;
  return page.value;
}

/** Requests of this process holding for a change now. */
let waiters = 0;

/** How many requests of this process hold for a change now. */
export const waitingRequests = (): number => waiters;

/**
 * How long a request may hold: `wait`, within what the deployment allows. Deployed (the
 * function's timeout is known), the answer must leave before the function's timeout and
 * Hosting's 60 s limit on a rewrite, with 5 s to spare; and at most half of an instance's
 * concurrency may hold at once, so waiting requests never take all of it (beyond that the
 * answer comes at once and the client asks again).
 */
function holdFor(waitSeconds: number, limits: ChangeFeedLimits): number {
  if (waiters >= limits.maxWaiters) return 0;
  return Math.min(waitSeconds, limits.maxHoldSeconds) * 1000;
}

/**
 * One consistent cut: the counters, then on each shard the changes after the reader's
 * position up to its counter (at most `limit`), merged by time (then shard) keeping each
 * shard's order, and the first `limit` taken (change-reader.ts).
 */
async function readPage(
  reads: TransactionReads,
  deps: Deps,
  calendarId: string,
  from: Cursor,
  limit: number,
  key: Buffer,
): Promise<ChangePage> {
  const counters = await readCounters(reads, calendarId, deps.config.revisionShards);
  if (counters.some((c, n) => c < from.positions[n])) throw errors.badChangeCursor(); // ahead of the calendar: not given out here
  const now = deps.clock();
  const read = await readChangesAfter(reads, calendarId, {
    counters,
    positions: from.positions,
    limit,
    perShard: limit,
    now,
  });
  if (!read) throw errors.cursorExpired();
  return {
    changes: read.changes,
    cursor: encodeCursor({ calendarId, issued: now.getTime(), positions: read.positions }, key),
  };
}

/** base64url of the tag, then the JSON `[calendarId, issued, positions]`: opaque to clients. */
function encodeCursor(cursor: Cursor, key: Buffer): string {
  const body = Buffer.from(JSON.stringify([cursor.calendarId, cursor.issued, cursor.positions]), "utf8");
  return Buffer.concat([tagOf(body, key), body]).toString("base64url");
}

const tagOf = (body: Buffer, key: Buffer): Buffer =>
  createHmac("sha256", key).update(body).digest().subarray(0, TAG_BYTES);

/**
 * A cursor this calendar's feed gave out, or 400 invalid_request (`field: cursor`): signed with
 * the server's key, for this calendar, and not issued later than `now` allows.
 */
function decodeCursor(text: string, calendarId: string, key: Buffer, now: number, shards: number): Cursor {
  const bytes = Buffer.from(text, "base64url");
  // Only the exact text given out: base64url decoding skips what is not of its alphabet.
  if (bytes.length <= TAG_BYTES || bytes.toString("base64url") !== text) throw errors.badChangeCursor();
  const body = bytes.subarray(TAG_BYTES);
  if (!timingSafeEqual(bytes.subarray(0, TAG_BYTES), tagOf(body, key))) throw errors.badChangeCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    throw errors.badChangeCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw errors.badChangeCursor();
  const [id, issued, positions] = parsed as unknown[];
  const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
  if (
    id !== calendarId ||
    !count(issued) ||
    issued > now + CURSOR_CLOCK_SKEW_MS ||
    !Array.isArray(positions) ||
    !positions.every(count)
  ) {
    throw errors.badChangeCursor();
  }
  // Signed by this server under another shard count (a deployment changed it): start again.
  if (positions.length !== shards)
    throw errors.cursorExpired("this cursor was given out before the service was reconfigured");
  return { calendarId, issued, positions };
}
