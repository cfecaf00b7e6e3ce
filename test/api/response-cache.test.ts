/**
 * The response cache keeps only canonical queries (issue 9): keys are built from the parsed
 * query, so the same list asked in another spelling shares one entry, and unique long query
 * values are answered without being kept.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";

const t = appPerTest();
let owner: MintedAgent;
let events: string;

beforeEach(async () => {
  owner = await mintAgent(t, "Owner");
  events = `/v1/calendars/${owner.calendarId}/events`;
  await post(t, events, owner.auth).send({ name: "Kickoff", date: "2026-12-02", category: "team" }).expect(200);
});

const list = async (query: string) =>
  (await request(t.app).get(`${events}?${query}`).expect(200)).body.events as Array<{ name: string }>;

describe("the response cache of event lists", () => {
  it("shares one entry between spellings of the same query", async () => {
    const before = t.deps.cache.stats().entries;
    expect(await list("kind=one-off&from=2026-12-01&category=team")).toHaveLength(1);
    expect(await list("category=team&from=2026-12-01&kind=one-off&limit=1000&layers=main")).toHaveLength(1);
    expect(await list("from=2026-12-01&category=team&kind=one-off")).toHaveLength(1);
    expect(t.deps.cache.stats().entries).toBe(before + 1);
  });

  it("answers unique long filter values without keeping them", async () => {
    await list("");
    const before = t.deps.cache.stats();
    for (let i = 0; i < 200; i++) {
      const category = `${i}-${"c".repeat(900)}`;
      expect(await list(`category=${category}`)).toEqual([]);
    }
    expect(t.deps.cache.stats()).toEqual(before);
  });
});

describe("the response cache of occurrences", () => {
  it("answers a repeated page from one entry, and a write changes it", async () => {
    const occurrences = (query: string) =>
      request(t.app)
        .get(`/v1/calendars/${owner.calendarId}/occurrences?${query}`)
        .expect(200)
        .then((r) => r.body.occurrences.map((o: { name: string }) => o.name));
    const before = t.deps.cache.stats().entries;
    expect(await occurrences("from=2026-12-01&to=2026-12-31")).toEqual(["Kickoff"]);
    expect(await occurrences("to=2026-12-31&limit=1000&from=2026-12-01")).toEqual(["Kickoff"]);
    expect(t.deps.cache.stats().entries).toBe(before + 1);
    await post(t, events, owner.auth).send({ name: "Review", date: "2026-12-03" }).expect(200);
    expect(await occurrences("from=2026-12-01&to=2026-12-31")).toEqual(["Kickoff", "Review"]);
  });
});
