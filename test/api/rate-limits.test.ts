import type { Express } from "express";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { ConfigError, readConfig } from "../../functions/src/config.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from "../../functions/src/http/rate-limit.js";
import type { AnyRoute } from "../../functions/src/http/route.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { apiRoutes } from "../../functions/src/routes/index.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectError, freshKey } from "../helpers/http.js";
import { laterCredential, mintAgent, type MintedAgent } from "../helpers/factories.js";
import { checkResponses } from "../helpers/check-responses.js";
import { testConfig } from "../helpers/config.js";

/**
 * Rate limits (docs/api.md#rate-limits) turned on with small limits: the suite's apps run with
 * RATE_LIMITS=off (test/helpers/config.ts), so these apps get their limits injected. Time is the
 * limiter's (Date.now), frozen with fake timers: nothing waits on the real clock.
 */
const SMALL: RateLimitConfig = {
  enabled: true,
  mint: { limit: 3, windowMs: 3_600_000 },
  writes: { limit: 3, windowMs: 60_000 },
  reads: { limit: 5, windowMs: 60_000 },
  pages: { limit: 4, windowMs: 60_000 },
  maxClients: 1_000,
};

const T0 = new Date("2026-11-22T10:00:00.000Z");

let t: TestApp;
let api: Express;
let pages: Express;
let a: MintedAgent;
let b: MintedAgent;

/** The deployed apps (behind Hosting: the client address is X-Forwarded-For's first entry). */
function limitedApps(config: RateLimitConfig = SMALL, behindProxy = true, deps: HttpDeps = t.deps) {
  api = createApiApp(deps, undefined, { checkOutcome: checkResponses(), rateLimits: config, behindProxy });
  pages = createPagesApp(deps, { rateLimits: config, behindProxy });
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  t = createTestApp();
  // Agents are minted through the suite's own app, which has no limits.
  a = await mintAgent(t, "Alpha");
  b = await mintAgent(t, "Beta");
  limitedApps();
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

const from = (address: string) => ({ "X-Forwarded-For": address });
const mint = (address: string) =>
  request(api).post("/v1/mint").set(from(address)).set("Idempotency-Key", freshKey()).send({ name: "Flood" });
const addEvent = (auth: { Authorization: string }, address = "198.51.100.1") =>
  request(api)
    .post(`/v1/calendars/${a.calendarId}/events`)
    .set(auth)
    .set(from(address))
    .set("Idempotency-Key", freshKey())
    .send({ name: "Standup", date: "2026-12-01" });
const readCalendar = (address: string, auth?: { Authorization: string }) => {
  const req = request(api).get(`/v1/calendars/${a.calendarId}`).set(from(address));
  return auth ? req.set(auth) : req;
};

/** The 429 of the API: the envelope, `Retry-After` in whole seconds, and details that say the same. */
function expectRateLimited(res: request.Response, limit: number, windowSeconds: number, retryAfter: number) {
  expectError(res, 429, "rate_limited");
  expect(res.headers["retry-after"]).toBe(String(retryAfter));
  expect(res.body.error.details).toEqual({ limit, window_seconds: windowSeconds, retry_after: retryAfter });
  expect(res.body.error.message).toContain(`wait ${retryAfter} s`);
  expect(res.headers["cache-control"]).toBe("no-store");
}

describe("POST /v1/mint: per client address per hour", () => {
  it("answers the fourth mint from one address 429 until the hour is over; other addresses are not affected", async () => {
    for (let i = 0; i < 3; i++) await mint("203.0.113.1").expect(200);
    vi.setSystemTime(new Date(T0.getTime() + 10 * 60_000));
    const refused = await mint("203.0.113.1");
    expectRateLimited(refused, 3, 3600, 50 * 60);
    expect(refused.body.error.message).toMatch(/3 mints per hour/);

    await mint("203.0.113.2").expect(200);
    vi.setSystemTime(new Date(T0.getTime() + 3_600_000));
    await mint("203.0.113.1").expect(200);
  });

  it("an IPv6 client counts per /56 network: rotating addresses inside it buys nothing", async () => {
    for (let i = 1; i <= 3; i++) await mint(`2001:db8:0:${i}::${i}`).expect(200);
    expectError(await mint("2001:db8:0:ff::1"), 429, "rate_limited");
    await mint("2001:db8:0:100::1").expect(200);
  });
});

describe("writes: per agent", () => {
  it("limits the agent across all its credentials and addresses, and leaves another agent alone", async () => {
    const second = await laterCredential(t, a);
    await addEvent(a.auth, "198.51.100.1").expect(200);
    await addEvent(second, "198.51.100.2").expect(200);
    const third = await addEvent(a.auth, "198.51.100.3").expect(200);
    expect(third.headers["ratelimit"]).toBe("limit=3, remaining=0, reset=60");
    expect(third.headers["ratelimit-policy"]).toBe("3;w=60");
    expectRateLimited(await addEvent(second, "198.51.100.4"), 3, 60, 60);

    // Beta writes to its own calendar: a budget of its own.
    const beta = await request(api)
      .post(`/v1/calendars/${b.calendarId}/events`)
      .set(b.auth)
      .set(from("198.51.100.1"))
      .set("Idempotency-Key", freshKey())
      .send({ name: "Beta's", date: "2026-12-01" });
    expect(beta.status).toBe(200);
    // Reads are a budget apart from writes.
    await readCalendar("198.51.100.1", a.auth).expect(200);
  });

  it("PATCH and DELETE count as writes", async () => {
    const created = (await addEvent(a.auth).expect(200)).body.id;
    await request(api)
      .patch(`/v1/calendars/${a.calendarId}/events/${created}`)
      .set(a.auth)
      .send({ name: "Renamed" })
      .expect(200);
    await request(api).delete(`/v1/calendars/${a.calendarId}/events/${created}`).set(a.auth).expect(200);
    expectError(await addEvent(a.auth), 429, "rate_limited");
  });
});

describe("reads: per agent, or per client address when anonymous", () => {
  it("keeps an agent's budget apart from its address's anonymous budget", async () => {
    for (let i = 0; i < 5; i++) await readCalendar("198.51.100.9", a.auth).expect(200);
    const refused = await readCalendar("198.51.100.9", a.auth);
    expectRateLimited(refused, 5, 60, 60);
    expect(refused.body.error.message).toMatch(/an agent may send 5 reads per minute/);
    await readCalendar("198.51.100.9", b.auth).expect(200);
    await readCalendar("198.51.100.9").expect(200);
  });

  it("limits anonymous readers per address; another address has its own budget", async () => {
    for (let i = 0; i < 5; i++) await readCalendar("192.0.2.7").expect(200);
    const refused = await readCalendar("192.0.2.7");
    expectRateLimited(refused, 5, 60, 60);
    expect(refused.body.error.message).toMatch(/one client address may send 5 reads per minute/);
    await readCalendar("192.0.2.8").expect(200);
    // Anything that is not a route counts too (/openapi.json, unknown paths).
    expectError(await request(api).get("/v1/nothing-here").set(from("192.0.2.7")), 429, "rate_limited");
  });

  it("a made-up token buys no fresh budget: it counts against the address", async () => {
    for (let i = 0; i < 5; i++) {
      expectError(
        await readCalendar("192.0.2.50", { Authorization: `Bearer almanac_made_up_${i}` }),
        401,
        "unauthorized",
      );
    }
    expectError(await readCalendar("192.0.2.50", { Authorization: "Bearer almanac_made_up_6" }), 429, "rate_limited");
    expectError(await readCalendar("192.0.2.50"), 429, "rate_limited");
  });

  it("the window starts again once it is over", async () => {
    for (let i = 0; i < 5; i++) await readCalendar("192.0.2.9").expect(200);
    vi.setSystemTime(new Date(T0.getTime() + 45_000));
    expectRateLimited(await readCalendar("192.0.2.9"), 5, 60, 15);
    vi.setSystemTime(new Date(T0.getTime() + 60_000));
    await readCalendar("192.0.2.9").expect(200);
  });
});

/** Other spellings of a path: a segment in capitals or capitalized, a trailing slash, doubled slashes. */
function respellings(path: string): string[] {
  const segments = path.split("/");
  const at = (i: number, replacement: string) => segments.map((s, j) => (j === i ? replacement : s)).join("/");
  const cased = segments.flatMap((segment, i) =>
    i > 0 && /^[a-z]/.test(segment) && !/_[A-Za-z0-9]+$/.test(segment)
      ? [at(i, segment.toUpperCase()), at(i, segment[0].toUpperCase() + segment.slice(1))]
      : [],
  );
  const doubled = segments.slice(1).map((segment, i) => at(i + 1, `/${segment}`));
  return [...new Set([...cased, `${path}/`, ...doubled])];
}

describe("limits key on the operation that matched, never on the path's spelling", () => {
  it("no other spelling of /v1/mint mints once the address has used its mints", async () => {
    for (let i = 0; i < 3; i++) await mint("203.0.113.5").expect(200);
    const answers: string[] = [];
    for (const path of [...respellings("/v1/mint"), "/V1/MINT", "/v1/mint//"]) {
      const res = await request(api)
        .post(path)
        .set(from("203.0.113.5"))
        .set("Idempotency-Key", freshKey())
        .send({ name: "Flood" });
      answers.push(`${res.status} ${res.body?.error?.code}`);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
    // A spelling that matches no operation draws from the address's write budget (3), never mint's.
    expect(answers).toEqual([...Array(3).fill("404 not_found"), ...Array(answers.length - 3).fill("429 rate_limited")]);
    expectError(await mint("203.0.113.5"), 429, "rate_limited");
  });

  type Budget = "mint" | "writes" | "reads";
  /** What each operation is charged, from its definition (docs/api.md#limits-by-operation). */
  const budgetOf = (route: AnyRoute): Budget =>
    route.method === "post" && route.path === "/v1/mint" ? "mint" : route.method === "get" ? "reads" : "writes";
  const honestPath = (route: AnyRoute) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === "calendarId" ? a.calendarId : name === "date" ? "2026-12-01" : `${name.slice(0, 3)}_abc`,
    );
  const ONE = { limit: 1, windowMs: 60_000 };

  it.each(apiRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
    "%s is charged to its own budget, and no other spelling runs it",
    async (_key, route) => {
      limitedApps({ ...SMALL, mint: ONE, writes: ONE, reads: ONE });
      const address = "198.51.100.77";
      const send = (method: AnyRoute["method"], path: string) => {
        let req = request(api)[method](path).set(from(address)).set(a.auth);
        if (method === "post") req = req.set("Idempotency-Key", freshKey());
        return method === "post" || method === "patch" ? req.send({ name: "Spelled" }) : req;
      };
      const path = honestPath(route);
      expect((await send(route.method, path)).status, "the first request is not limited").not.toBe(429);
      expectError(await send(route.method, path), 429, "rate_limited");

      const others: Record<Budget, () => Promise<request.Response>> = {
        mint: () => send("post", "/v1/mint"),
        writes: () => send("patch", `/v1/calendars/${a.calendarId}`),
        reads: () => send("get", "/v1/me"),
      };
      for (const budget of ["mint", "writes", "reads"] as const) {
        if (budget === budgetOf(route)) continue;
        expect((await others[budget]()).status, `${budget} has a budget of its own`).toBe(200);
      }

      // Afresh, the operation's budget spent: another spelling neither runs it nor buys a budget.
      limitedApps({ ...SMALL, mint: ONE, writes: ONE, reads: ONE });
      await send(route.method, path);
      for (const spelling of respellings(path)) {
        const res = await send(route.method, spelling);
        expect([404, 429], `${route.method.toUpperCase()} ${spelling}`).toContain(res.status);
        expect(typeof res.body?.error?.code).toBe("string");
      }
    },
  );
});

describe("pages and feeds: per client address", () => {
  it("answers an HTML page for a page and plain text for a feed, both 429 with Retry-After", async () => {
    const page = `/c/${a.calendarSlug}`;
    await request(pages).get(page).set(from("192.0.2.20")).expect(200);
    await request(pages).get(`${page}.ics`).set(from("192.0.2.20")).expect(200);
    await request(pages).get("/v/no-such-view").set(from("192.0.2.20")).expect(404);
    await request(pages).get(page).set(from("192.0.2.20")).expect(200);

    const html = await request(pages).get(page).set(from("192.0.2.20"));
    expect(html.status).toBe(429);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.headers["retry-after"]).toBe("60");
    expect(html.headers["cache-control"]).toBe("no-store");
    expect(html.text).toContain("Too many requests");
    expect(html.text).toContain("Wait 60 seconds");

    const feed = await request(pages).get(`${page}.ics`).set(from("192.0.2.20"));
    expect(feed.status).toBe(429);
    expect(feed.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(feed.headers["retry-after"]).toBe("60");
    expect(feed.headers["access-control-allow-origin"]).toBe("*");
    expect(feed.text).toMatch(
      /^Too many requests from your address: at most 4 pages and feeds per minute\. Wait 60 seconds/,
    );

    // No RateLimit headers on pages: a shared cache must not pass one client's budget to another.
    await request(pages)
      .get(page)
      .set(from("192.0.2.21"))
      .expect(200)
      .expect((res) => expect(res.headers["ratelimit"]).toBeUndefined());
  });
});

describe("client addresses", () => {
  it("locally (not behind a proxy) X-Forwarded-For is ignored: the socket's peer is the client", async () => {
    limitedApps(SMALL, false);
    for (let i = 0; i < 5; i++) await readCalendar(`192.0.2.${100 + i}`).expect(200);
    expectError(await readCalendar("192.0.2.200"), 429, "rate_limited");
  });

  it("with TRUST_PROXY_HOPS the entry the proxy appended counts, so a forged first entry buys nothing", async () => {
    limitedApps(SMALL, true, { ...t.deps, config: testConfig({ TRUST_PROXY_HOPS: "1" }) });
    for (let i = 0; i < 5; i++) await readCalendar(`10.9.9.${i}, 192.0.2.30`).expect(200);
    expectError(await readCalendar("10.9.9.99, 192.0.2.30"), 429, "rate_limited");
    await readCalendar("10.9.9.1, 192.0.2.31").expect(200);
  });

  it("a header entry that is not an IP address counts as the peer's address", async () => {
    for (let i = 0; i < 5; i++) await readCalendar(`not-an-address-${"x".repeat(i * 100)}`).expect(200);
    expectError(await readCalendar("still-not-one"), 429, "rate_limited");
  });

  it("beyond maxClients in a window, new clients share one budget (memory stays bounded)", async () => {
    limitedApps({ ...SMALL, mint: { limit: 1, windowMs: 3_600_000 }, maxClients: 3 });
    for (let i = 1; i <= 3; i++) await mint(`192.0.2.${i}`).expect(200);
    await mint("192.0.2.4").expect(200);
    expectError(await mint("192.0.2.5"), 429, "rate_limited");
    // Clients already known keep their own budget.
    expectError(await mint("192.0.2.1"), 429, "rate_limited");
  });
});

describe("configuration", () => {
  const rateLimitsFromEnv = (env: Record<string, string>) => readConfig(env).rateLimits;
  const trustProxySetting = (env: Record<string, string>) => readConfig(env).trustProxy;

  it("defaults to docs/api.md#rate-limits; RATE_LIMITS=off turns every limit off", () => {
    expect(rateLimitsFromEnv({})).toEqual(DEFAULT_RATE_LIMITS);
    expect(DEFAULT_RATE_LIMITS).toMatchObject({
      enabled: true,
      mint: { limit: 20, windowMs: 3_600_000 },
      writes: { limit: 600, windowMs: 60_000 },
      reads: { limit: 3_000, windowMs: 60_000 },
      pages: { limit: 600, windowMs: 60_000 },
    });
    expect(rateLimitsFromEnv({ RATE_LIMITS: "off" }).enabled).toBe(false);
    expect(rateLimitsFromEnv({ RATE_LIMITS: "on" }).enabled).toBe(true);
    expect(() => rateLimitsFromEnv({ RATE_LIMITS: "sometimes" })).toThrow(ConfigError);
    expect(() => rateLimitsFromEnv({ RATE_LIMITS: "sometimes" })).toThrow(
      'RATE_LIMITS must be "on" or "off", not "sometimes"',
    );
  });

  it("reads each limit from its variable", () => {
    const config = rateLimitsFromEnv({
      RATE_LIMIT_MINT_PER_HOUR: "5",
      RATE_LIMIT_WRITES_PER_MINUTE: "100",
      RATE_LIMIT_READS_PER_MINUTE: "200",
      RATE_LIMIT_PAGES_PER_MINUTE: "300",
    });
    expect([config.mint.limit, config.writes.limit, config.reads.limit, config.pages.limit]).toEqual([
      5, 100, 200, 300,
    ]);
    expect(() => rateLimitsFromEnv({ RATE_LIMIT_READS_PER_MINUTE: "-1" })).toThrow(/RATE_LIMIT_READS_PER_MINUTE/);
    expect(trustProxySetting({})).toBe(true);
    expect(trustProxySetting({ TRUST_PROXY_HOPS: "2" })).toBe(2);
    expect(() => trustProxySetting({ TRUST_PROXY_HOPS: "all" })).toThrow(/TRUST_PROXY_HOPS/);
  });

  it("with RATE_LIMITS=off nothing is limited", async () => {
    limitedApps({ ...SMALL, enabled: false });
    for (let i = 0; i < 8; i++) await mint("203.0.113.77").expect(200);
    for (let i = 0; i < 8; i++) await request(pages).get(`/c/${a.calendarSlug}`).set(from("203.0.113.77")).expect(200);
  });
});
