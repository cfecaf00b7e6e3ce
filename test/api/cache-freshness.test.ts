/**
 * How fresh a cached anonymous answer is (docs/decisions/revision-shards-and-cache.md,
 * "Freshness"): anonymous reads (the event list without a token, pages, feeds) build their
 * cache key from shard revisions the instance read at most KEPT_REVISIONS_MS ago, so a cached
 * one reads at most 3 documents instead of the calendar and its 8 shards. A write on the same
 * instance is seen at once; one on another instance (a second app over the same store, or a
 * write straight through the store) within the window; a read with a token is always current.
 */
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { KEPT_REVISIONS_MS } from "../../functions/src/domain/kept-revisions.js";
import { paths } from "../../functions/src/domain/paths.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { CountingStore } from "../helpers/counting-store.js";
import { mintAgent, type MintedAgent, newCalendar } from "../helpers/factories.js";
import { post } from "../helpers/http.js";

let t: TestApp;
let store: CountingStore;
let owner: MintedAgent;
let calendarId: string;
let pages: ReturnType<typeof createPagesApp>;
/** Another instance over the same store: its own memory and response cache. */
let other: { api: ReturnType<typeof createApiApp>; pages: ReturnType<typeof createPagesApp> };

const eventsPath = () => `/v1/calendars/${calendarId}/events`;
const PAGE = "/c/team?view=month&date=2026-12-01";
const FEED = "/c/team.ics";
const SHARDS = [0, 1, 2, 3, 4, 5, 6, 7];

const names = async (app: TestApp["app"], token?: { Authorization: string }) => {
  const req = request(app).get(eventsPath());
  const res = await (token ? req.set(token) : req).expect(200);
  return res.body.events.map((e: { name: string }) => e.name).sort();
};
/** Documents one request read, counted from a fresh window. */
const documentsRead = async (send: () => PromiseLike<request.Response>) => {
  store.take();
  const res = await send();
  expect(res.status).toBe(200);
  return store.take().documentsRead;
};
const create = (app: TestApp["app"], name: string) =>
  post({ app }, eventsPath(), owner.auth).send({ name, date: "2026-12-02" }).expect(200);

beforeEach(async () => {
  t = createTestApp();
  pages = createPagesApp(t.deps);
  owner = await mintAgent(t, "Owner");
  calendarId = (await newCalendar(t, owner, { name: "Team", slug: "team", visibility: "public" })).id;
  await create(t.app, "Kickoff");
  // Every shard written, as on a calendar with some history: a read of them reads 8.
  await t.deps.store.runTransaction(async (tx) => {
    const shards = await Promise.all(SHARDS.map((n) => tx.get(paths.shard(calendarId, n))));
    for (const n of SHARDS) if (!shards[n]) tx.set(paths.shard(calendarId, n), { revision: `r${n}`, event_count: 0 });
  });
  store = new CountingStore(t.deps.store);
  t.deps.store = store;
  const otherDeps: HttpDeps = { ...t.deps, memory: {}, cache: new ResponseCache() };
  other = { api: createApiApp(otherDeps), pages: createPagesApp(otherDeps) };
});
afterEach(() => t.close());

describe("a cached anonymous read within the window", () => {
  it("reads at most 3 documents: event list, page and feed", async () => {
    for (const [app, path] of [
      [t.app, eventsPath()],
      [pages, PAGE],
      [pages, FEED],
    ] as const) {
      await documentsRead(() => request(app).get(path)); // computes and keeps
      t.clock.advance(KEPT_REVISIONS_MS - 1);
      expect(await documentsRead(() => request(app).get(path)), path).toBeLessThanOrEqual(3);
      // After the window the shards are read again (the calendar and its shards: 9 and more).
      t.clock.advance(1);
      expect(await documentsRead(() => request(app).get(path)), path).toBeGreaterThanOrEqual(9);
    }
  });

  it("with a token, reads the shards every time, as before", async () => {
    await names(t.app, owner.auth);
    // The token, the calendar, the caller's membership and the 8 shards.
    expect(await documentsRead(() => request(t.app).get(eventsPath()).set(owner.auth))).toBeGreaterThanOrEqual(11);
    expect(await documentsRead(() => request(t.app).get(eventsPath()).set(owner.auth))).toBeGreaterThanOrEqual(11);
  });
});

describe("a write on this instance", () => {
  it("is seen at once by the anonymous list, the page and the feed", async () => {
    expect(await names(t.app)).toEqual(["Kickoff"]);
    await request(pages).get(PAGE).expect(200);
    await request(pages).get(FEED).expect(200);
    await create(t.app, "Launch");
    expect(await names(t.app)).toEqual(["Kickoff", "Launch"]);
    expect((await request(pages).get(PAGE).expect(200)).text).toContain("Launch");
    expect((await request(pages).get(FEED).expect(200)).text).toContain("Launch");
  });

  it("is seen at once when it changes the calendar's settings (the calendar record is read every time)", async () => {
    await request(other.pages).get(PAGE).expect(200);
    await request(t.app).patch(`/v1/calendars/${calendarId}`).set(owner.auth).send({ name: "Renamed" }).expect(200);
    expect((await request(other.pages).get(PAGE).expect(200)).text).toContain("Renamed");
  });
});

describe("a write on another instance", () => {
  it("is seen by anonymous reads after the window, by reads with a token at once", async () => {
    expect(await names(t.app)).toEqual(["Kickoff"]);
    expect((await request(pages).get(PAGE).expect(200)).text).not.toContain("Launch");
    await create(other.api, "Launch");
    // Within the window, this instance may answer from what it kept.
    expect(await names(t.app)).toEqual(["Kickoff"]);
    expect((await request(pages).get(PAGE).expect(200)).text).not.toContain("Launch");
    expect(await names(t.app, owner.auth)).toEqual(["Kickoff", "Launch"]);
    t.clock.advance(KEPT_REVISIONS_MS);
    expect(await names(t.app)).toEqual(["Kickoff", "Launch"]);
    expect((await request(pages).get(PAGE).expect(200)).text).toContain("Launch");
  });

  it("is seen after the window when written straight through the store, with no signal", async () => {
    const before = (await request(pages).get(FEED).expect(200)).headers.etag;
    await store.runTransaction(async (tx) => {
      tx.set(paths.shard(calendarId, 5), { revision: "written-elsewhere", event_count: 0 });
    });
    expect((await request(pages).get(FEED).expect(200)).headers.etag).toBe(before);
    t.clock.advance(KEPT_REVISIONS_MS);
    expect((await request(pages).get(FEED).expect(200)).headers.etag).not.toBe(before);
  });
});

describe("ETags", () => {
  it("answer 304 within the window only; a write on this instance changes them at once", async () => {
    const first = await request(pages).get(FEED).expect(200);
    const etag = first.headers.etag;
    expect(first.text).not.toContain("Launch");
    await request(pages).get(FEED).set("If-None-Match", etag).expect(304);

    await create(other.api, "Launch");
    t.clock.advance(KEPT_REVISIONS_MS - 1);
    await request(pages).get(FEED).set("If-None-Match", etag).expect(304);
    t.clock.advance(1);
    const after = await request(pages).get(FEED).set("If-None-Match", etag).expect(200);
    expect(after.text).toContain("Launch");
    const second = after.headers.etag;
    expect(second).not.toBe(etag);

    // The page's ETag likewise, and a write here is never hidden by a 304.
    const page = await request(pages).get(PAGE).expect(200);
    await request(pages).get(PAGE).set("If-None-Match", page.headers.etag).expect(304);
    await create(t.app, "Review");
    const changed = await request(pages).get(PAGE).set("If-None-Match", page.headers.etag).expect(200);
    expect(changed.text).toContain("Review");
    const feed = await request(pages).get(FEED).set("If-None-Match", second).expect(200);
    expect(feed.text).toContain("Review");
  });
});
