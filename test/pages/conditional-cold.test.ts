/**
 * Issue 23: a conditional GET of a page or feed on an instance that has rendered nothing yet
 * (a fresh response cache) is answered 304 from what the cache key reads (the calendar, its
 * layers, its shards' revisions), before a single event is read. Each test renders on one app,
 * then asks a second app over the same store, counting what the second one reads.
 */
import type { Express } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { newRevision } from "../../functions/src/domain/revision.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { FEED_EVENT_BUDGET } from "../../functions/src/pages/budgets.js";
import { appPerTest } from "../helpers/app.js";
import { seedEvents, type EventSeed } from "../helpers/big-calendar.js";
import { CountingStore, type StoreCounts } from "../helpers/counting-store.js";
import { mintAgent, newEvent, newView, type MintedAgent } from "../helpers/factories.js";
import { patch } from "../helpers/http.js";

const t = appPerTest(); // the clock starts at 2026-11-22T10:00Z
const EVENTS = 500;
/** The calendar's slug and the calendar, its layers (none here), its eight shards. */
const KEY_DOCUMENTS = 10;

let owner: MintedAgent;

const december = (i: number): EventSeed =>
  i % 50 === 0
    ? { name: `Series ${i}`, recur: { type: "weekly", day: 2, starts: "2026-12-01" }, start_time: "09:00" }
    : {
        name: `Event ${i}`,
        date: `2026-12-${String(1 + (i % 31)).padStart(2, "0")}`,
        start_time: i % 3 === 0 ? null : `${String(8 + (i % 10)).padStart(2, "0")}:00`,
        category: `c${i % 4}`,
      };

/** Events written straight to the store, then counted on every shard as event writes would leave them. */
async function seedCounted(calendarId: string, seeds: EventSeed[], total: number): Promise<void> {
  await seedEvents(t.deps, calendarId, seeds);
  const shards = t.deps.config.revisionShards;
  await t.deps.store.runTransaction(async (tx) => {
    for (let n = 0; n < shards; n++) {
      const share = Math.floor(total / shards) + (n < total % shards ? 1 : 0);
      tx.set(paths.shard(calendarId, n), { revision: newRevision(), event_count: share, change_seq: 0 });
    }
  });
}

beforeEach(async () => {
  owner = await mintAgent(t, "Planner", { calendar: { name: "Plan", timezone: "Europe/Berlin" } });
  await seedCounted(
    owner.calendarId,
    Array.from({ length: EVENTS }, (_, i) => december(i)),
    EVENTS,
  );
});

/** A second instance over the same store: nothing rendered, every read counted. */
function coldInstance(): { app: Express; store: CountingStore } {
  const store = new CountingStore(t.deps.store);
  return { app: createPagesApp({ ...t.deps, store, cache: new ResponseCache() }), store };
}

async function coldGet(path: string, etag?: string): Promise<{ res: request.Response; counts: StoreCounts }> {
  const { app, store } = coldInstance();
  const { result, counts } = await store.measure(async () => {
    const req = request(app).get(path);
    return etag ? req.set("If-None-Match", etag) : req;
  });
  return { res: result, counts };
}

const warmGet = (path: string) => request(createPagesApp(t.deps)).get(path).expect(200);

describe.each([
  ["a calendar's feed", () => `/c/${owner.calendarSlug}.ics`],
  ["a calendar's page", () => `/c/${owner.calendarSlug}?view=month&date=2026-12-01`],
])("%s on a cold instance", (_name, pathOf) => {
  it(`answers a matching If-None-Match with 304, reading at most ${KEY_DOCUMENTS} documents of ${EVENTS} events`, async () => {
    const path = pathOf();
    const warm = await warmGet(path);
    const etag = warm.headers.etag;

    const { res, counts } = await coldGet(path, etag);
    expect(res.status).toBe(304);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(counts.documentsRead).toBeLessThanOrEqual(KEY_DOCUMENTS);

    // Without the validator the same cold instance reads the events and renders the same bytes.
    const full = await coldGet(path);
    expect(full.res.status).toBe(200);
    expect(full.res.headers.etag).toBe(etag);
    expect(full.res.text).toBe(warm.text);
    expect(full.counts.documentsRead).toBeGreaterThan(EVENTS);
  });

  it("answers 200 with a new ETag once an event is written, and 404 once the calendar is private", async () => {
    const path = pathOf();
    const { etag } = (await warmGet(path)).headers;
    await newEvent(t, owner, owner.calendarId, { name: "Added", date: "2026-12-03" });
    const changed = await coldGet(path, etag);
    expect(changed.res.status).toBe(200);
    expect(changed.res.text).toContain("Added");
    expect(changed.res.headers.etag).not.toBe(etag);

    await patch(t, `/v1/calendars/${owner.calendarId}`, owner.auth).send({ visibility: "private" }).expect(200);
    const gone = await coldGet(path, changed.res.headers.etag);
    expect(gone.res.status).toBe(404);
    expect(gone.res.headers.etag).toBeUndefined();
  });
});

describe("a share view on a cold instance", () => {
  it.each([
    ["feed", (slug: string) => `/v/${slug}.ics`],
    ["page", (slug: string) => `/v/${slug}?view=month&date=2026-12-01`],
  ])(
    "answers its %s's matching If-None-Match with 304 before reading an event, and 404 once revoked",
    async (_kind, pathOf) => {
      const view = await newView(t, owner, owner.calendarId, { filter: { categories: ["c1"] } });
      const path = pathOf(view.slug);
      const { etag } = (await warmGet(path)).headers;
      const { res, counts } = await coldGet(path, etag);
      expect(res.status).toBe(304);
      // The view's slug and the view, the calendar, its layers and shards.
      expect(counts.documentsRead).toBeLessThanOrEqual(KEY_DOCUMENTS + 1);

      await request(t.app).delete(`/v1/calendars/${owner.calendarId}/views/${view.id}`).set(owner.auth).expect(200);
      expect((await coldGet(path, etag)).res.status).toBe(404);
    },
  );
});

describe("a feed's ETag and the date", () => {
  const path = () => `/c/${owner.calendarSlug}.ics`;

  it("stays from one day to the next while every event fits the budget", async () => {
    const { etag } = (await warmGet(path())).headers;
    t.clock.set("2026-11-23T10:00:00.000Z");
    expect((await coldGet(path(), etag)).res.status).toBe(304);
  });

  it("changes with the date once the shards count more events than the budget, which ranks by it", async () => {
    const more = Array.from({ length: FEED_EVENT_BUDGET + 1 - EVENTS }, (_, i) => december(EVENTS + i));
    await seedCounted(owner.calendarId, more, FEED_EVENT_BUDGET + 1);
    const warm = await warmGet(path());
    expect(warm.headers["x-almanac-events-omitted"]).toBe("1");
    t.clock.set("2026-11-23T10:00:00.000Z");
    const nextDay = await coldGet(path(), warm.headers.etag);
    expect(nextDay.res.status).toBe(200);
    expect(nextDay.res.headers.etag).not.toBe(warm.headers.etag);
  });
});
