/**
 * Answers cached per revision stay cached however many layers a calendar shows: their keys
 * carry a hash of the revisions (domain/revision.ts `revisionsKey`), not the revisions
 * themselves, which for a dozen layers ran past the 512 characters the cache keeps a key for,
 * so that every request computed its answer again. Computations are counted through the cache
 * the apps are given.
 */
import type { Express } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { RenderedCache } from "../../functions/src/http/deps.js";
import { revisionsKey } from "../../functions/src/domain/revision.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { MAX_KEY_LENGTH } from "../../functions/src/http/response-cache.js";
import { appPerTest } from "../helpers/app.js";
import { seedLayeredHost } from "../helpers/big-calendar.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";

const t = appPerTest(); // the clock starts at 2026-11-22T10:00Z
const LAYERS = 12;
let computed: string[];
let api: Express;
let pages: Express;
let owner: MintedAgent;
let host: { id: string; slug: string };

/** The app's cache, recording the kind of every answer it had to compute. */
function countingCache(inner: RenderedCache): RenderedCache {
  const count =
    <T>(compute: () => Promise<T>, key: string) =>
    () => {
      computed.push(key.slice(0, key.indexOf("|")));
      return compute();
    };
  return {
    body: (key, compute) => inner.body(key, count(compute, key)),
    json: (key, compute) => inner.json(key, count(compute, key)),
    stats: () => inner.stats(),
  };
}

beforeEach(async () => {
  computed = [];
  const deps = { ...t.deps, cache: countingCache(t.deps.cache) };
  api = createApiApp(deps);
  pages = createPagesApp(deps);
  owner = await mintAgent(t, "Planner", { calendar: { name: "Plan", timezone: "Europe/Berlin" } });
  host = await newCalendar(t, owner, { name: "Host", visibility: "public" });
  const create = (name: string) => newCalendar(t, owner, { name, visibility: "public" });
  await seedLayeredHost(t.deps, create, host.id, LAYERS, 1);
});

describe(`a calendar with ${LAYERS} layers`, () => {
  it("has a revisions key of fixed length, which changes with any revision", async () => {
    const calendar = (id: string, revision: string) => ({ id, revision });
    const many = Array.from({ length: 40 }, (_, i) => ({ layer: `l${i}`, calendar: calendar(`cal_${i}`, "r1") }));
    const key = await revisionsKey(t.deps, many, "current");
    expect(key.length).toBeLessThan(MAX_KEY_LENGTH / 4);
    const changed = many.map((s, i) => (i === 39 ? { ...s, calendar: calendar(s.calendar.id, "r2") } : s));
    expect(await revisionsKey(t.deps, changed, "current")).not.toBe(key);
  });

  it("computes its month page, its events with layers and its occurrences once each", async () => {
    const auth = { Authorization: `Bearer ${owner.token}` };
    const paths = [
      `/v1/calendars/${host.id}/events?layers=all`,
      `/v1/calendars/${host.id}/occurrences?from=2026-12-01&to=2026-12-31`,
    ];
    for (let round = 0; round < 3; round++) {
      for (const path of paths) await request(api).get(path).set(auth).expect(200);
      const page = await request(pages).get(`/c/${host.slug}?view=month&date=2026-12-01`).expect(200);
      expect(page.text).toContain("L11 0");
    }
    expect(computed.sort()).toEqual(["events", "occurrences", "page"]);
  });

  it("computes them again once a layer's calendar changes", async () => {
    const occurrences = `/v1/calendars/${host.id}/occurrences?from=2026-12-01&to=2026-12-31`;
    const auth = { Authorization: `Bearer ${owner.token}` };
    await request(api).get(occurrences).set(auth).expect(200);
    const layerCalendar = await newCalendar(t, owner, { name: "Late layer", visibility: "public" });
    await newEvent(t, owner, layerCalendar.id, { name: "Late", date: "2026-12-05" });
    await request(api).get(occurrences).set(auth).expect(200); // not a layer: still cached
    const first = (await request(api).get(occurrences).set(auth)).body;
    await newEvent(t, owner, host.id, { name: "Host's own", date: "2026-12-06" });
    const after = (await request(api).get(occurrences).set(auth).expect(200)).body as {
      occurrences: Array<{ name: string }>;
    };
    expect(after.occurrences.map((o) => o.name)).toContain("Host's own");
    expect(first).not.toEqual(after);
    expect(computed).toEqual(["occurrences", "occurrences"]);
  });
});
