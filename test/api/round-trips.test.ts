/**
 * Store round trips per request (issue 10), counted with CountingStore around the test app's
 * store: a read is at most two sequential round trips (the token and what the path names,
 * then the caller's role and what needs no caller), a write is one transaction after the
 * Idempotency-Key claim. Prefetching changes no access decision: a refused caller gets what
 * it got before.
 */
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { CountingStore } from "../helpers/counting-store.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectError, post, withoutRequestId } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";

describe("store round trips per request", () => {
  let t: TestApp;
  let store: CountingStore;
  let owner: MintedAgent;
  let stranger: MintedAgent;
  let publicId: string;
  let privateId: string;
  let publicEvent: string;
  let privateEvent: string;

  /** What one request cost the store, counted from a fresh window. */
  const cost = async (send: () => Promise<request.Response>, status = 200) => {
    store.take();
    const res = await send();
    expect(res.status).toBe(status);
    return { res, counts: store.take() };
  };

  beforeEach(async () => {
    t = createTestApp();
    owner = await mintAgent(t, "Owner");
    stranger = await mintAgent(t, "Stranger");
    const calendar = async (visibility: string) =>
      (await post(t, "/v1/calendars", owner.auth).send({ name: visibility, visibility }).expect(200)).body.id;
    publicId = await calendar("public");
    privateId = await calendar("private");
    const event = async (calendarId: string) =>
      (
        await post(t, `/v1/calendars/${calendarId}/events`, owner.auth)
          .send({ name: "Standup", date: "2026-12-01" })
          .expect(200)
      ).body.id;
    publicEvent = await event(publicId);
    privateEvent = await event(privateId);
    store = new CountingStore(t.deps.store);
    t.deps.store = store;
  });
  afterEach(() => t.close());

  it("one event: one round trip anonymously, two with a token (the membership after the token)", async () => {
    const anonymous = await cost(() => request(t.app).get(`/v1/calendars/${publicId}/events/${publicEvent}`));
    expect(anonymous.counts.roundTrips).toBe(1);
    const withToken = await cost(() =>
      request(t.app).get(`/v1/calendars/${privateId}/events/${privateEvent}`).set(owner.auth),
    );
    expect(withToken.counts.roundTrips).toBe(2);
    expect(withToken.res.body.id).toBe(privateEvent);
  });

  it("the events list: two round trips from the cache, three when it is computed", async () => {
    const path = `/v1/calendars/${privateId}/events`;
    const miss = await cost(() => request(t.app).get(path).set(owner.auth));
    expect(miss.counts.roundTrips).toBe(3);
    const hit = await cost(() => request(t.app).get(path).set(owner.auth));
    expect(hit.counts.roundTrips).toBe(2);
    expect(hit.res.body).toEqual(miss.res.body);
    t.deps.cache = new ResponseCache();
    const occurrences = await cost(() =>
      request(t.app).get(`/v1/calendars/${privateId}/occurrences?from=2026-12-01&to=2026-12-31`).set(owner.auth),
    );
    expect(occurrences.counts.roundTrips).toBe(3);
  });

  it("a prefetched private record reaches no caller the policy refuses", async () => {
    const paths = [
      `/v1/calendars/${privateId}/events/${privateEvent}`,
      `/v1/calendars/${privateId}/events`,
      `/v1/calendars/${privateId}`,
    ];
    for (const path of paths) {
      // A stranger and an anonymous caller are answered exactly as for a calendar that does not exist.
      const absent = await request(t.app).get(path.replace(privateId, "cal_doesNotExist")).set(stranger.auth);
      for (const res of [await request(t.app).get(path).set(stranger.auth), await request(t.app).get(path)]) {
        expectError(res, 404, "not_found");
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(absent.body));
        expect(JSON.stringify(res.body)).not.toContain(privateEvent);
      }
    }
    // A bad token is 401 before anything prefetched is looked at.
    expectError(
      await request(t.app).get(paths[0]).set({ Authorization: "Bearer svc_agent_nope" }),
      401,
      "unauthorized",
    );
  });

  it("a POST is one transaction after the Idempotency-Key claim", async () => {
    const { counts } = await cost(() =>
      post(t, `/v1/calendars/${privateId}/events`, owner.auth).send({ name: "Review", date: "2026-12-02" }),
    );
    expect(counts.transactions).toBe(2);
    const patch = await cost(() =>
      request(t.app)
        .patch(`/v1/calendars/${privateId}/events/${privateEvent}`)
        .set(owner.auth)
        .send({ name: "Standup 2" }),
    );
    expect(patch.counts.transactions).toBe(1);
  });
});
