/**
 * Paging through a calendar's events reads each event about once (issue 10): every event
 * stores `sort_key`, and a page reads its sources in that order from the cursor on, only as
 * far as the page needs. Before, every page read the whole subcollection: O(N²/limit).
 * The pages put together must be the whole list, in list order, with and without filters.
 */
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { occursBetween } from "../../functions/src/domain/recurrence/index.js";
import type { EventRecord } from "../../functions/src/domain/records.js";
import { CountingStore } from "../helpers/counting-store.js";
import { seedEvents, type EventSeed } from "../helpers/big-calendar.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";
import { seedLayer } from "../helpers/store.js";

const N = 2500;
const LIMIT = 100;
const pad = (n: number) => String(n).padStart(2, "0");

/** Every kind, dates over two years, timed and untimed, creation instants that tie. */
function seeds(count: number, prefix: string): EventSeed[] {
  return Array.from({ length: count }, (_, i): EventSeed => {
    const base = { name: `${prefix} ${i}`, category: `c${i % 5}`, created_at: `2026-01-01T00:${pad(i % 60)}:00.000Z` };
    const slot = i % 10;
    if (slot < 6) {
      const timed = i % 3 !== 0 ? { start_time: `${pad(i % 24)}:${pad(i % 4 === 0 ? 0 : 30)}` } : {};
      return { ...base, date: `${2026 + (i % 2)}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`, ...timed };
    }
    if (slot < 8)
      return { ...base, recur: { type: "weekly", day: 1 + (i % 7), starts: `2026-${pad(1 + (i % 12))}-01` } };
    if (slot < 9)
      return { ...base, recur: { type: "daily", starts: "2026-02-01", until: `2026-${pad(2 + (i % 10))}-15` } };
    return base; // someday
  });
}

/** The list order of docs/api.md#events-list, computed here on its own. */
const order = (e: EventRecord): Array<string | number> =>
  e.kind === "one-off"
    ? [0, e.date!, e.start_time ?? "", e.created_at, e.id]
    : [e.kind === "recurring" ? 1 : 2, "", "", e.created_at, e.id];
const compare = (a: EventRecord, b: EventRecord) => {
  const [x, y] = [order(a), order(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
};

interface Filters {
  kind?: EventRecord["kind"];
  category?: string;
  from?: string;
  to?: string;
}

function expected(events: EventRecord[], f: Filters): string[] {
  const inRange = (e: EventRecord) => {
    if (f.from === undefined && f.to === undefined) return true;
    const [lo, hi] = [f.from ?? "0001-01-01", f.to ?? "9999-12-31"];
    if (e.kind === "one-off") return e.date! >= lo && e.date! <= hi;
    return e.kind === "recurring" && occursBetween(e.recur!, e.recur!.starts!, lo, hi);
  };
  return events
    .filter(
      (e) =>
        (f.kind === undefined || e.kind === f.kind) &&
        (f.category === undefined || e.category === f.category) &&
        inRange(e),
    )
    .sort(compare)
    .map((e) => e.id);
}

describe("paging through events", () => {
  let t: TestApp;
  let owner: MintedAgent;
  let counting: CountingStore;

  const newCalendar = async (name: string): Promise<string> =>
    (await post(t, "/v1/calendars", owner.auth).send({ name, visibility: "private" }).expect(200)).body.id;

  /** Every page, and the documents all of them read together. */
  async function pageThrough(calendarId: string, query: Record<string, string>) {
    const ids: string[] = [];
    const layers: string[] = [];
    let cursor: string | null = null;
    counting.take();
    do {
      const res: request.Response = await request(t.app)
        .get(`/v1/calendars/${calendarId}/events`)
        .query({ ...query, limit: LIMIT, ...(cursor ? { cursor } : {}) })
        .set(owner.auth)
        .expect(200);
      expect(res.body.events.length).toBeLessThanOrEqual(LIMIT);
      for (const e of res.body.events as Array<{ id: string; layer: string }>) {
        ids.push(e.id);
        layers.push(e.layer);
      }
      cursor = res.body.next_cursor as string | null;
    } while (cursor);
    return { ids, layers, documentsRead: counting.take().documentsRead };
  }

  beforeEach(async () => {
    t = createTestApp();
    owner = await mintAgent(t, "Pager");
  });
  afterEach(() => t.close());

  describe(`${N} events, limit ${LIMIT}`, () => {
    let calendarId: string;
    let events: EventRecord[];

    beforeEach(async () => {
      calendarId = await newCalendar("Big");
      events = await seedEvents(t.deps, calendarId, seeds(N, "E"));
      counting = new CountingStore(t.deps.store);
      t.deps.store = counting;
    });

    const cases: Array<[string, Filters]> = [
      ["no filter", {}],
      ["kind=recurring", { kind: "recurring" }],
      ["kind=someday", { kind: "someday" }],
      ["category=c2", { category: "c2" }],
      ["from/to", { from: "2026-06-01", to: "2026-09-30" }],
      ["from only", { from: "2027-03-01" }],
      ["kind, category and from", { kind: "one-off", category: "c1", from: "2027-02-01" }],
    ];
    for (const [name, filters] of cases) {
      it(`${name}: the pages together are the whole list, and read fewer than 3 × N documents`, async () => {
        const want = expected(events, filters);
        expect(want.length).toBeGreaterThan(LIMIT); // several pages
        const { ids, documentsRead } = await pageThrough(calendarId, filters as Record<string, string>);
        expect(ids).toEqual(want);
        expect(documentsRead).toBeLessThan(3 * N);
      });
    }

    it("a PATCH that moves an event moves it in the list (its sort_key follows)", async () => {
      const first = expected(events, {})[0];
      await request(t.app)
        .patch(`/v1/calendars/${calendarId}/events/${first}`)
        .set(owner.auth)
        .send({ date: "9999-12-31" })
        .expect(200);
      const stored = (await t.deps.store.get<EventRecord>(paths.event(calendarId, first)))!.data;
      const moved = events.map((e) => (e.id === first ? stored : e));
      expect((await pageThrough(calendarId, {})).ids).toEqual(expected(moved, {}));
    });
  });

  it("layers=all: the sources merged in list order, each event once, fewer than 3 × N documents", async () => {
    const hostId = await newCalendar("Host");
    const main = await seedEvents(t.deps, hostId, seeds(N - 600, "H"));
    const layered: Array<{ key: string; events: EventRecord[] }> = [];
    for (const [key, count] of [
      ["team", 500],
      ["ops", 100],
    ] as const) {
      const layerId = await newCalendar(key);
      layered.push({ key, events: await seedEvents(t.deps, layerId, seeds(count, key)) });
      await seedLayer(t.deps, hostId, layerId, key);
    }
    counting = new CountingStore(t.deps.store);
    t.deps.store = counting;
    const all = [...main, ...layered.flatMap((l) => l.events)];
    const layerOf = new Map([
      ...main.map((e) => [e.id, "main"] as const),
      ...layered.flatMap((l) => l.events.map((e) => [e.id, l.key] as const)),
    ]);
    for (const filters of [{}, { category: "c3" }, { from: "2026-05-01", to: "2026-08-31" }] as Filters[]) {
      const { ids, layers, documentsRead } = await pageThrough(hostId, {
        ...(filters as Record<string, string>),
        layers: "all",
      });
      expect(ids).toEqual(expected(all, filters));
      expect(layers).toEqual(ids.map((id) => layerOf.get(id)));
      expect(documentsRead).toBeLessThan(3 * N);
    }
  });

  it("a calendar from before sort keys (no marker, events without sort_key) lists correctly, and a PATCH stores the key", async () => {
    const calendarId = await newCalendar("Old");
    const events = await seedEvents(t.deps, calendarId, seeds(350, "Old"));
    await t.deps.store.runTransaction(async (tx) => {
      const calendar = (await tx.get(paths.calendar(calendarId)))!.data;
      tx.set(paths.calendar(calendarId), { ...calendar, event_sort_keys: false });
      for (const e of events) tx.set(paths.event(calendarId, e.id), { ...e });
    });
    counting = new CountingStore(t.deps.store);
    t.deps.store = counting;
    for (const filters of [{}, { kind: "one-off", from: "2026-04-01" }] as Filters[]) {
      expect((await pageThrough(calendarId, filters as Record<string, string>)).ids).toEqual(expected(events, filters));
    }
    const some = events[7];
    await request(t.app)
      .patch(`/v1/calendars/${calendarId}/events/${some.id}`)
      .set(owner.auth)
      .send({ name: "Renamed" })
      .expect(200);
    expect((await t.deps.store.get<EventRecord>(paths.event(calendarId, some.id)))!.data.sort_key).toEqual(
      expect.any(String),
    );
    expect((await pageThrough(calendarId, {})).ids).toEqual(expected(events, {}));
  });
});
