/**
 * The change feed (issue 14, docs/api.md#change-feed): GET /v1/calendars/{id}/changes. Every write that
 * changes what a calendar shows is one change, recorded in the write's transaction; a reader
 * following the cursor sees each once, in order; `wait` long-polls; cursors expire after 7
 * days; the route reads like GET .../events.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { EXPIRING_COLLECTIONS, PURGE_FIELD } from "../../functions/src/domain/retention.js";
import { waitingRequests } from "../../functions/src/domain/queries/changes.js";
import { DEFAULT_SHARDS } from "../../functions/src/domain/revision.js";
import { startLocalServer } from "../../functions/src/server.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { sweepExpired } from "../../functions/src/storage/sqlite/sweep.js";
import { appPerTest, createTestApp, onFirestore, sqliteOnly, testClock, type TestApp } from "../helpers/app.js";
import {
  attachLayer,
  grantRole,
  laterCredential,
  mintAgent,
  newCalendar,
  newEvent,
  patchCalendar,
} from "../helpers/factories.js";
import { del, expectError, get, patch, type Auth } from "../helpers/http.js";

/** The injected clock, one millisecond later at every reading: writes made one after another get rising times. */
function tickingClock() {
  const clock = testClock();
  return Object.assign(
    () => {
      clock.advance(1);
      return clock();
    },
    { advance: clock.advance, set: clock.set },
  );
}

const t = appPerTest(() => createTestApp({ clock: tickingClock() }));
const DAY = 24 * 60 * 60 * 1000;
// The suite's apps run with the default shard count (test/helpers/config.ts).
const SHARD_NUMBERS = Array.from({ length: DEFAULT_SHARDS }, (_, n) => n);

interface Change {
  seq: number;
  type: string;
  id: string;
  at: string;
  event?: { id: string; name: string } & Record<string, unknown>;
  original_date?: string;
}
interface Page {
  changes: Change[];
  cursor: string;
}

async function changes(calendarId: string, auth: Auth | undefined, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return get(t, `/v1/calendars/${calendarId}/changes${search ? `?${search}` : ""}`, auth);
}

async function page(calendarId: string, auth: Auth | undefined, query: Record<string, string | number> = {}) {
  const res = await changes(calendarId, auth, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Page;
}

describe("the change feed", () => {
  it("starts with no changes and the current cursor, then shows every kind of write once, in order", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const start = await page(cal, owner.auth);
    expect(start.changes).toEqual([]);
    expect(typeof start.cursor).toBe("string");

    const one = await newEvent(t, owner, cal, { name: "Dentist", date: "2026-12-01" });
    const series = await newEvent(t, owner, cal, { name: "Standup", recur: { type: "daily" }, start_time: "09:00" });
    await patch(t, `/v1/calendars/${cal}/events/${one.id}`, owner.auth).send({ name: "Dentist (moved)" }).expect(200);
    await patch(t, `/v1/calendars/${cal}/events/${series.id}/occurrences/2026-11-25`, owner.auth)
      .send({ cancelled: true })
      .expect(200);
    await del(t, `/v1/calendars/${cal}/events/${series.id}/occurrences/2026-11-25`, owner.auth).expect(200);
    await del(t, `/v1/calendars/${cal}/events/${one.id}`, owner.auth).expect(200);
    await patchCalendar(t, owner, cal, { name: "Renamed" });
    const other = await newCalendar(t, owner, { name: "Holidays" });
    const layer = await attachLayer(t, owner, cal, other.id, "holidays");
    await del(t, `/v1/calendars/${cal}/layers/${layer.id}`, owner.auth).expect(200);

    const read = await page(cal, owner.auth, { cursor: start.cursor });
    expect(read.changes.map((c) => [c.type, c.id, c.event?.name ?? null, c.original_date ?? null])).toEqual([
      ["event.created", one.id, "Dentist", null],
      ["event.created", series.id, "Standup", null],
      ["event.updated", one.id, "Dentist (moved)", null],
      ["exception.changed", series.id, "Standup", "2026-11-25"],
      ["exception.changed", series.id, "Standup", "2026-11-25"],
      ["event.deleted", one.id, null, null],
      ["calendar.updated", cal, null, null],
      ["layer.attached", layer.id, null, null],
      ["layer.detached", layer.id, null, null],
    ]);
    // seq counts the changes passed, one by one; `event` is the event as GET shows it.
    const seqs = read.changes.map((c) => c.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    const shown = await get(t, `/v1/calendars/${cal}/events/${series.id}`, owner.auth).expect(200);
    expect(read.changes[1].event).toEqual(shown.body);
    for (const c of read.changes) expect(Date.parse(c.at)).toBeGreaterThan(0);

    // The returned cursor is past them all; a PATCH that changes nothing is no change.
    await patchCalendar(t, owner, cal, { name: "Renamed" });
    expect((await page(cal, owner.auth, { cursor: read.cursor })).changes).toEqual([]);
  });

  it("pages by limit, and each page's cursor goes on where it stopped", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    let cursor = (await page(cal, owner.auth)).cursor;
    const made: string[] = [];
    for (let i = 0; i < 25; i++) made.push((await newEvent(t, owner, cal, { name: `E${i}` })).id);
    const seen: Change[] = [];
    for (;;) {
      const next = await page(cal, owner.auth, { cursor, limit: 7 });
      expect(next.changes.length).toBeLessThanOrEqual(7);
      seen.push(...next.changes);
      cursor = next.cursor;
      if (next.changes.length === 0) break;
    }
    expect(seen.map((c) => c.id)).toEqual(made);
    expect(seen.map((c) => c.seq)).toEqual(made.map((_, i) => seen[0].seq + i));
  });

  it("1,000 writes from 4 concurrent writers: a reader following the cursor sees each exactly once, in order", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const WRITERS = 4;
    const PER_WRITER = 250;
    const writers = [owner.auth];
    for (let w = 1; w < WRITERS; w++) {
      const agent = await mintAgent(t, `Writer ${w}`);
      await grantRole(t, owner, cal, agent.agentId, "writer");
      writers.push(agent.auth);
    }
    const start = (await page(cal, owner.auth)).cursor;

    /** Each write's key as the feed shows it, and when it was sent and answered. */
    interface Write {
      key: string;
      writer: number;
      sent: number;
      answered: number;
    }
    const writes: Write[] = [];
    const keyOf = (c: Pick<Change, "type" | "id" | "event">) => `${c.type} ${c.id} ${c.event?.name ?? ""}`;

    async function writer(w: number): Promise<void> {
      const auth = writers[w];
      let eventId = "";
      for (let i = 0; i < PER_WRITER; i++) {
        const label = `w${w}-${i}`;
        const sent = performance.now();
        let key: string;
        if (i % 5 === 0) {
          eventId = (await newEvent(t, { auth }, cal, { name: label })).id;
          key = keyOf({ type: "event.created", id: eventId, event: { id: eventId, name: label } });
        } else if (i % 5 === 4) {
          await del(t, `/v1/calendars/${cal}/events/${eventId}`, auth).expect(200);
          key = keyOf({ type: "event.deleted", id: eventId });
        } else {
          await patch(t, `/v1/calendars/${cal}/events/${eventId}`, auth).send({ name: label }).expect(200);
          key = keyOf({ type: "event.updated", id: eventId, event: { id: eventId, name: label } });
        }
        writes.push({ key, writer: w, sent, answered: performance.now() });
      }
    }

    const seen: Change[] = [];
    let writing = true;
    let pages = 0;
    let pagesWhileWriting = 0;
    async function reader(): Promise<void> {
      let cursor = start;
      while (writing || seen.length < WRITERS * PER_WRITER) {
        const next = await page(cal, owner.auth, { cursor, limit: 37, wait: 1 });
        pages++;
        if (writing && next.changes.length > 0) pagesWhileWriting++;
        seen.push(...next.changes);
        cursor = next.cursor;
        if (!writing && next.changes.length === 0) break;
      }
    }

    const reading = reader();
    await Promise.all(writers.map((_, w) => writer(w)));
    writing = false;
    await reading;

    const keys = seen.map(keyOf);
    const duplicates = keys.length - new Set(keys).size;
    const position = new Map(keys.map((k, i) => [k, i]));
    const missing = writes.filter((w) => !position.has(w.key)).length;
    // In order: a write answered before another was sent is seen before it (each writer's own order included).
    let outOfOrder = 0;
    for (const a of writes) {
      for (const b of writes) {
        if (a.answered < b.sent && position.get(a.key)! > position.get(b.key)!) outOfOrder++;
      }
    }
    const seqGaps = seen.filter((c, i) => i > 0 && c.seq !== seen[i - 1].seq + 1).length;
    console.log(
      `change feed: ${writes.length} writes from ${WRITERS} writers; reader saw ${seen.length} changes, ` +
        `${duplicates} duplicates, ${missing} missing, ${outOfOrder} out of order, ${seqGaps} seq gaps; ` +
        `${pages} reads, ${pagesWhileWriting} of them with changes while the writers wrote`,
    );
    expect(writes.length).toBe(WRITERS * PER_WRITER);
    expect(seen.length).toBe(WRITERS * PER_WRITER);
    expect([duplicates, missing, outOfOrder, seqGaps]).toEqual([0, 0, 0, 0]);
    expect(pagesWhileWriting).toBeGreaterThan(1); // the reader followed along, not only at the end
  }, 120_000);

  it("wait holds the answer until a change arrives, and answers within 100 ms of the write", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    let cursor = (await page(cal, owner.auth)).cursor;
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      let answeredAt = 0;
      const waiting = page(cal, owner.auth, { cursor, wait: 20 }).then((p) => {
        answeredAt = performance.now();
        return p;
      });
      await new Promise((resolve) => setTimeout(resolve, 30)); // the reader is waiting by now
      expect(answeredAt).toBe(0);
      const event = await newEvent(t, owner, cal, { name: `Wake ${i}` });
      const written = performance.now();
      const answer = await waiting;
      expect(answer.changes.map((c) => c.id)).toEqual([event.id]);
      latencies.push(Math.max(0, answeredAt - written));
      cursor = answer.cursor;
    }
    const max = Math.max(...latencies);
    console.log(`change feed: wait answered at most ${max.toFixed(1)} ms after the write's answer (10 waits)`);
    expect(max).toBeLessThan(100);
  });

  it("wait with nothing to report answers empty once the time passes, with a cursor that still follows", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const start = await page(cal, owner.auth);
    const empty = await page(cal, owner.auth, { cursor: start.cursor, wait: 0.2 });
    expect(empty.changes).toEqual([]);
    const event = await newEvent(t, owner, cal);
    expect((await page(cal, owner.auth, { cursor: empty.cursor })).changes.map((c) => c.id)).toEqual([event.id]);
  });

  it.skipIf(onFirestore)(
    sqliteOnly(
      "on the local server, a long wait outlives the socket limits meant for slow requests (npm start)",
      "npm start keeps its data in a SQLite file",
    ),
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "almanac-changes-"));
      // Limits far shorter than the wait: they bound receiving a request, not answering it.
      const timeouts = { headersMs: 400, requestMs: 500, keepAliveMs: 200, checkIntervalMs: 100 };
      const local = await startLocalServer({ port: 0, dataDir, log: () => {}, timeouts });
      try {
        const origin = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
        const owner = await mintAgent({ app: local.server as unknown as TestApp["app"] }, "Owner");
        const url = `${origin}/v1/calendars/${owner.calendarId}/changes`;
        const start = (await (await fetch(url, { headers: owner.auth })).json()) as Page;
        const held = await fetch(`${url}?cursor=${start.cursor}&wait=1.5`, { headers: owner.auth });
        expect(held.status).toBe(200);
        expect(((await held.json()) as Page).changes).toEqual([]);
      } finally {
        await local.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it("a cursor older than 7 days is 410 cursor_expired; so is one behind a change already past retention", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const old = (await page(cal, owner.auth)).cursor;
    t.clock.advance(7 * DAY - 1000);
    expect((await page(cal, owner.auth, { cursor: old })).changes).toEqual([]);
    t.clock.advance(2000);
    expectError(await changes(cal, owner.auth, { cursor: old }), 410, "cursor_expired");

    // Fresh cursors, but the reader took one change of two and came back after the other's retention.
    const before = (await page(cal, owner.auth)).cursor;
    await newEvent(t, owner, cal, { name: "First" });
    await newEvent(t, owner, cal, { name: "Second" });
    t.clock.advance(6 * DAY);
    const first = await page(cal, owner.auth, { cursor: before, limit: 1 });
    expect(first.changes.map((c) => c.event?.name)).toEqual(["First"]);
    t.clock.advance(DAY + 1000);
    expectError(await changes(cal, owner.auth, { cursor: first.cursor }), 410, "cursor_expired");

    // The sweep purges expired changes (Firestore: the TTL policy); the cursor stays expired, a new one works.
    const kept = async () => {
      const shards = await Promise.all(SHARD_NUMBERS.map((n) => t.deps.store.query(paths.changes(cal, n))));
      return shards.flat().map((d) => d.data.event?.name);
    };
    expect((await kept()).sort()).toEqual(["First", "Second"]);
    // SQLite's sweep only: Firestore's is the TTL policy, which the emulator does not run.
    if (!onFirestore) {
      sweepExpired(
        t.deps.store as SqliteStore,
        { collections: EXPIRING_COLLECTIONS, field: PURGE_FIELD },
        t.deps.clock(),
      );
      expect(await kept()).toEqual([]);
    }
    expectError(await changes(cal, owner.auth, { cursor: first.cursor }), 410, "cursor_expired");
    const fresh = await page(cal, owner.auth);
    const third = await newEvent(t, owner, cal, { name: "Third" });
    expect((await page(cal, owner.auth, { cursor: fresh.cursor })).changes.map((c) => c.id)).toEqual([third.id]);
  });

  it("a reader whose grant is revoked gets 404, like any stranger to a private calendar", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    const grant = await grantRole(t, owner, cal, reader.agentId, "reader");
    const cursor = (await page(cal, reader.auth)).cursor;
    await newEvent(t, owner, cal);
    expect((await page(cal, reader.auth, { cursor })).changes).toHaveLength(1);
    await del(t, `/v1/calendars/${cal}/grants/${grant.id}`, owner.auth).expect(200);
    expectError(await changes(cal, reader.auth, { cursor }), 404, "not_found");
    expectError(await changes(cal, reader.auth, { cursor, wait: 5 }), 404, "not_found");
  });

  it("climbs 401 -> 400 (limit, wait, cursor named) -> 404 -> 200 on a private calendar", async () => {
    const owner = await mintAgent(t, "Owner");
    const stranger = await mintAgent(t, "Stranger");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    expectError(await changes(cal, { Authorization: "Bearer svc_agent_nope" }), 401, "unauthorized");
    const cursor = (await page(cal, owner.auth)).cursor;
    for (const [query, field] of [
      [{ limit: 0 }, "limit"],
      [{ limit: 1001 }, "limit"],
      [{ limit: "ten" }, "limit"],
      [{ wait: 61 }, "wait"],
      [{ wait: -1 }, "wait"],
      [{ since: 1 }, "since"],
    ] as const) {
      const res = await changes(cal, stranger.auth, query);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, JSON.stringify(query)).toBe(field);
    }
    // The cursor is judged after access (a stranger learns nothing from it): broken, forged
    // or another calendar's, it is 400 for a reader.
    const elsewhere = (await page(stranger.calendarId, stranger.auth)).cursor;
    const forged = Buffer.from(JSON.stringify([cal, Date.now(), [9, 0, 0, 0, 0, 0, 0, 0]])).toString("base64url");
    for (const bad of ["not-a-cursor", elsewhere, forged]) {
      expectError(await changes(cal, stranger.auth, { cursor: bad }), 404, "not_found");
      const res = await changes(cal, owner.auth, { cursor: bad });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toBe("cursor");
    }
    expectError(await changes(cal, stranger.auth, { cursor }), 404, "not_found");
    expectError(await changes(cal, undefined, { cursor }), 404, "not_found");
    expect((await page(cal, owner.auth, { cursor })).changes).toEqual([]);
  });
});

/** Resolves once `holds` is true, checking every few milliseconds; fails after `ms`. */
async function until(holds: () => boolean, ms = 2000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!holds()) {
    if (performance.now() > deadline) throw new Error(`still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("a pending long-poll re-checks the caller before it answers", () => {
  /** A long-poll of the reader, waiting by the time this resolves; `answer` is its response. */
  async function pendingPoll(calendarId: string, auth: Auth | undefined, cursor: string, wait = 10) {
    const answer = changes(calendarId, auth, { cursor, wait });
    await until(() => waitingRequests() === 1);
    return { answer };
  }

  it("grant revoked while waiting: 404, and the event written after never reaches the reader", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    const grant = await grantRole(t, owner, cal, reader.agentId, "reader");
    const cursor = (await page(cal, reader.auth)).cursor;
    const { answer } = await pendingPoll(cal, reader.auth, cursor);
    await del(t, `/v1/calendars/${cal}/grants/${grant.id}`, owner.auth).expect(200);
    await newEvent(t, owner, cal, { name: "After the revocation", notes: "not for the reader" });
    const res = await answer;
    expectError(res, 404, "not_found");
    expect(JSON.stringify(res.body)).not.toContain("After the revocation");
    expect(waitingRequests()).toBe(0);
  });

  // An idle waiter reads nothing of its own (one watcher reads the calendar's counters for all),
  // so a revocation that changes nothing of the calendar is judged when the wait ends.
  it("grant revoked while waiting, nothing written: 404 when the wait ends, not an empty page", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    const grant = await grantRole(t, owner, cal, reader.agentId, "reader");
    const cursor = (await page(cal, reader.auth)).cursor;
    const { answer } = await pendingPoll(cal, reader.auth, cursor, 1.5);
    await del(t, `/v1/calendars/${cal}/grants/${grant.id}`, owner.auth).expect(200);
    expectError(await answer, 404, "not_found");
  });

  it("credential revoked while waiting: 401, and the event written after never reaches the reader", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    await grantRole(t, owner, cal, reader.agentId, "reader");
    const kept = await laterCredential(t, reader);
    const cursor = (await page(cal, reader.auth)).cursor;
    const { answer } = await pendingPoll(cal, reader.auth, cursor);
    await del(t, `/v1/agent-credentials/${reader.credentialId}`, kept).expect(200);
    await newEvent(t, owner, cal, { name: "After the revocation" });
    const res = await answer;
    expectError(res, 401, "unauthorized");
    expect(JSON.stringify(res.body)).not.toContain("After the revocation");
    // The reader's other credential still follows the feed.
    expect((await page(cal, kept, { cursor })).changes.map((c) => c.event?.name)).toEqual(["After the revocation"]);
  });

  it("an anonymous reader of a public calendar made private while waiting: 404, nothing written after", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = (await newCalendar(t, owner, { visibility: "public" })).id;
    const cursor = (await page(cal, undefined)).cursor;
    const { answer } = await pendingPoll(cal, undefined, cursor);
    await patchCalendar(t, owner, cal, { visibility: "private" });
    await newEvent(t, owner, cal, { name: "Private now" });
    const res = await answer;
    expectError(res, 404, "not_found");
    expect(JSON.stringify(res.body)).not.toContain("Private now");
  });

  it("a reader whose access holds gets the change as before", async () => {
    const owner = await mintAgent(t, "Owner");
    const reader = await mintAgent(t, "Reader");
    const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
    await grantRole(t, owner, cal, reader.agentId, "reader");
    const cursor = (await page(cal, reader.auth)).cursor;
    const { answer } = await pendingPoll(cal, reader.auth, cursor);
    const event = await newEvent(t, owner, cal, { name: "Seen" });
    const res = await answer;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as Page).changes.map((c) => c.id)).toEqual([event.id]);
  });
});

describe("change-feed cursors are authenticated by the server", () => {
  const YEAR_2286 = Date.parse("2286-11-20T17:46:39.000Z");
  const unsigned = (cal: string, issued: number, positions = SHARD_NUMBERS.map(() => 0)) =>
    Buffer.from(JSON.stringify([cal, issued, positions])).toString("base64url");

  async function expectBadCursor(cal: string, auth: Auth, cursor: string) {
    const res = await changes(cal, auth, { cursor });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.field).toBe("cursor");
    expect(res.body.error.message).toMatch(/omit it/);
  }

  it("a forged cursor issued in 2286 (which would never expire) is 400, also 8 days later", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    await expectBadCursor(cal, owner.auth, unsigned(cal, YEAR_2286));
    t.clock.advance(8 * DAY);
    await expectBadCursor(cal, owner.auth, unsigned(cal, YEAR_2286));
  });

  it("a cursor of the unauthenticated form given out before is 400, telling the client to start again without it", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    await expectBadCursor(cal, owner.auth, unsigned(cal, t.clock().getTime()));
  });

  it("a cursor the server gave out, with any byte changed, is 400", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const given = Buffer.from((await page(cal, owner.auth)).cursor, "base64url");
    expect((await page(cal, owner.auth, { cursor: given.toString("base64url") })).changes).toEqual([]);
    for (let i = 0; i < given.length; i += 7) {
      const edited = Buffer.from(given);
      edited[i] ^= 0x01;
      await expectBadCursor(cal, owner.auth, edited.toString("base64url"));
    }
  });

  it("a cursor issued in the future beyond the clock skew is 400; within it, it is followed", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const cursor = (await page(cal, owner.auth)).cursor;
    t.clock.advance(-10 * 1000); // another instance's clock 10 s ahead: still fine
    expect((await page(cal, owner.auth, { cursor })).changes).toEqual([]);
    t.clock.advance(-10 * 60 * 1000);
    await expectBadCursor(cal, owner.auth, cursor);
  });

  it("stays opaque base64url, and another instance on the same store accepts it", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const cursor = (await page(cal, owner.auth)).cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const event = await newEvent(t, owner, cal);
    const { createApiApp } = await import("../../functions/src/app.js");
    const { ResponseCache } = await import("../../functions/src/http/response-cache.js");
    const other = { app: createApiApp({ ...t.deps, memory: {}, cache: new ResponseCache() }) };
    const res = await get(other, `/v1/calendars/${cal}/changes?cursor=${cursor}`, owner.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body as Page).changes.map((c) => c.id)).toEqual([event.id]);
  });
});
