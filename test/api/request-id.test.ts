/**
 * Request ids (http/request-id.ts): every answer of the API, /mcp, the pages and the feeds
 * carries `X-Request-Id`, the client's own when well formed, else a new one; a JSON error
 * repeats it as `error.request_id`, HTML error pages and plain-text feed errors show it, and
 * the request log writes it.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { LogFields } from "../../functions/src/domain/deps.js";
import type { RateLimitConfig } from "../../functions/src/http/rate-limit.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, freshKey, post } from "../helpers/http.js";
import { mintAgent, newCalendar } from "../helpers/factories.js";
import { checkResponses } from "../helpers/check-responses.js";

const t = appPerTest();
let pages: Express;
let entries: Array<{ line: string; fields?: LogFields }>;

beforeEach(() => {
  entries = [];
  t.deps.log = (line, fields) => entries.push({ line, fields });
  pages = createPagesApp(t.deps);
});

const CLIENT_ID = "client-42.retry_3";
const MADE = /^req_[A-Za-z0-9_-]{16}$/;

/** The answer carries the client's id, and an error repeats it in its envelope. */
function expectEchoed(res: request.Response, status: number, code: string): void {
  expectError(res, status, code);
  expect(res.headers["x-request-id"]).toBe(CLIENT_ID);
  expect(res.body.error.request_id).toBe(CLIENT_ID);
}

describe("X-Request-Id on the API", () => {
  it("echoes a well-formed client id on a success", async () => {
    const res = await request(t.app).get("/openapi.json").set("X-Request-Id", CLIENT_ID).expect(200);
    expect(res.headers["x-request-id"]).toBe(CLIENT_ID);
    const minted = await post(t, "/v1/mint").set("X-Request-Id", CLIENT_ID).send({ name: "Scout" }).expect(200);
    expect(minted.headers["x-request-id"]).toBe(CLIENT_ID);
  });

  it("echoes it on errors, in the header and as error.request_id", async () => {
    const withId = (req: request.Test) => req.set("X-Request-Id", CLIENT_ID);
    expectEchoed(await withId(request(t.app).get("/v1/me")), 401, "unauthorized");
    expectEchoed(await withId(request(t.app).get("/v1/nothing-here")), 404, "not_found");
    expectEchoed(await withId(request(t.app).delete("/v1/me")), 405, "method_not_allowed");
    expectEchoed(
      await withId(post(t, "/v1/mint").set("Content-Type", "application/json").send('{"name": ')),
      400,
      "invalid_json",
    );
    expectEchoed(
      await withId(post(t, "/v1/mint").set("Content-Type", "text/plain").send("name=Scout")),
      415,
      "unsupported_media_type",
    );
    const big = JSON.stringify({ name: "Scout", pad: "x".repeat(65 * 1024) });
    expectEchoed(
      await withId(post(t, "/v1/mint").set("Content-Type", "application/json").send(big)),
      413,
      "payload_too_large",
    );
    expectEchoed(await withId(post(t, "/v1/mint").send({})), 400, "invalid_request");
  });

  it("echoes it on a 429 of the rate limits", async () => {
    const limits: RateLimitConfig = {
      enabled: true,
      mint: { limit: 1, windowMs: 3_600_000 },
      writes: { limit: 100, windowMs: 60_000 },
      reads: { limit: 100, windowMs: 60_000 },
      pages: { limit: 1, windowMs: 60_000 },
      maxClients: 1_000,
    };
    const limited = createApiApp(t.deps, undefined, { checkOutcome: checkResponses(), rateLimits: limits });
    const mint = () =>
      request(limited).post("/v1/mint").set("Idempotency-Key", freshKey()).set("X-Request-Id", CLIENT_ID);
    expect((await mint().send({ name: "First" })).status).toBe(200);
    expectEchoed(await mint().send({ name: "Second" }), 429, "rate_limited");

    const limitedPages = createPagesApp(t.deps, { rateLimits: limits });
    await request(limitedPages).get("/c/nothing-here").expect(404);
    const page = await request(limitedPages).get("/c/nothing-here").set("X-Request-Id", CLIENT_ID).expect(429);
    expect(page.headers["x-request-id"]).toBe(CLIENT_ID);
    expect(page.text).toContain(`Request id: ${CLIENT_ID}`);
  });

  it("replaces a malformed id: too long, bad characters, empty, two values", async () => {
    for (const sent of ["x".repeat(65), "has space", "a/b", "semi;colon", ""]) {
      const res = await request(t.app).get("/v1/nothing-here").set("X-Request-Id", sent);
      expectError(res, 404, "not_found");
      expect(res.headers["x-request-id"], JSON.stringify(sent)).toMatch(MADE);
    }
    // Two header lines, each well formed: Node hands them to the app joined ("one, two").
    const twice = await new Promise<IncomingMessage>((resolve, reject) => {
      const server = t.app.listen(0, () => {
        const { port } = server.address() as AddressInfo;
        const req = httpRequest({ port, path: "/v1/nothing-here" }, (res) => {
          res.resume();
          res.on("end", () => server.close());
          resolve(res);
        });
        req.setHeader("X-Request-Id", ["one", "two"]);
        req.on("error", reject);
        req.end();
      });
    });
    expect(twice.statusCode).toBe(404);
    expect(twice.headers["x-request-id"]).toMatch(MADE);
    // 64 characters is still well formed.
    const longest = "a".repeat(64);
    expect((await request(t.app).get("/v1/me").set("X-Request-Id", longest)).headers["x-request-id"]).toBe(longest);
  });

  it("makes one when none is sent, a new one per request, and exposes it to browsers", async () => {
    const first = await request(t.app).get("/v1/me");
    const second = await request(t.app).get("/v1/me");
    expectError(first, 401, "unauthorized");
    expect(first.headers["x-request-id"]).toMatch(MADE);
    expect(second.headers["x-request-id"]).toMatch(MADE);
    expect(first.headers["x-request-id"]).not.toBe(second.headers["x-request-id"]);
    expect(first.headers["access-control-expose-headers"]).toBe("X-Request-Id, WWW-Authenticate");
    const preflight = await request(t.app).options("/v1/me").expect(204);
    expect(preflight.headers["x-request-id"]).toMatch(MADE);
  });

  it("writes the id in the request log line and its fields", async () => {
    await request(t.app).get("/v1/nothing-here").set("X-Request-Id", CLIENT_ID).expect(404);
    expect(entries).toEqual([
      {
        line: expect.stringMatching(new RegExp(`^GET /v1/nothing-here 404 \\d+\\.\\dms ${CLIENT_ID}$`)),
        fields: expect.objectContaining({ request_id: CLIENT_ID }),
      },
    ]);
  });
});

describe("X-Request-Id on /mcp", () => {
  const ACCEPT = { Accept: "application/json, text/event-stream" };
  // Without a token, /mcp/public: /mcp answers a tokenless request 401, for OAuth.
  const mcp = (body: unknown, auth?: { Authorization: string }) => {
    const req = request(t.app)
      .post(auth ? "/mcp" : "/mcp/public")
      .set(ACCEPT)
      .set("Content-Type", "application/json")
      .set("X-Request-Id", CLIENT_ID);
    return (auth ? req.set(auth) : req).send(JSON.stringify(body));
  };

  it("carries the header, and a tool's error envelope names the /mcp request's id", async () => {
    const listed = await mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(listed.status).toBe(200);
    expect(listed.headers["x-request-id"]).toBe(CLIENT_ID);

    const agent = await mintAgent(t, "Alpha");
    entries = [];
    const refused = await mcp(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_calendar", arguments: { calendarId: "cal_nope" } },
      },
      agent.auth,
    );
    expect(refused.status).toBe(200);
    expect(refused.headers["x-request-id"]).toBe(CLIENT_ID);
    expect(refused.body.result.isError).toBe(true);
    const envelope = JSON.parse(refused.body.result.content[0].text as string);
    expect(envelope.error).toMatchObject({ code: "not_found", request_id: CLIENT_ID });
    // The tool call runs inside the /mcp request: one request, one log line, one id.
    expect(entries.map((e) => e.fields?.path)).toEqual(["/mcp"]);
    expect(entries.map((e) => e.fields?.request_id)).toEqual([CLIENT_ID]);
  });

  it("stamps arguments refused before the operation runs with the /mcp request's id", async () => {
    const agent = await mintAgent(t, "Alpha");
    const refused = await mcp(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_calendar", arguments: {} } },
      agent.auth,
    );
    expect(refused.body.result.isError).toBe(true);
    const envelope = JSON.parse(refused.body.result.content[0].text as string);
    expect(envelope.error).toMatchObject({ code: "invalid_request", request_id: CLIENT_ID });
  });
});

describe("X-Request-Id on pages and feeds", () => {
  it("carries the header on a page, and an HTML error page shows the id", async () => {
    const owner = await mintAgent(t, "Alpha");
    const calendar = await newCalendar(t, owner, { visibility: "public" });
    const page = await request(pages).get(`/c/${calendar.slug}`).set("X-Request-Id", CLIENT_ID).expect(200);
    expect(page.headers["x-request-id"]).toBe(CLIENT_ID);

    const missing = await request(pages).get("/c/nothing-here").expect(404);
    const id = missing.headers["x-request-id"];
    expect(id).toMatch(MADE);
    expect(missing.text).toContain(`<small>Request id: ${id}</small>`);
    const wrongMethod = await request(pages).post(`/c/${calendar.slug}`).set("X-Request-Id", CLIENT_ID).expect(405);
    expect(wrongMethod.text).toContain(`Request id: ${CLIENT_ID}`);
    const account = await request(pages).get("/account/nothing-here").set("X-Request-Id", CLIENT_ID);
    expect(account.headers["x-request-id"]).toBe(CLIENT_ID);
  });

  it("carries the header on a feed, exposed to browsers, and ends a feed's error with the id", async () => {
    const owner = await mintAgent(t, "Alpha");
    const calendar = await newCalendar(t, owner, { visibility: "public" });
    const feed = await request(pages).get(`/c/${calendar.slug}.ics`).set("X-Request-Id", CLIENT_ID).expect(200);
    expect(feed.headers["x-request-id"]).toBe(CLIENT_ID);
    expect(feed.headers["access-control-expose-headers"]).toBe("ETag, X-Request-Id");

    const missing = await request(pages).get("/c/nothing-here.ics").set("X-Request-Id", CLIENT_ID).expect(404);
    expect(missing.headers["x-request-id"]).toBe(CLIENT_ID);
    expect(missing.headers["access-control-expose-headers"]).toBe("X-Request-Id");
    expect(missing.text.trimEnd().split("\n").at(-1)).toBe(`Request id: ${CLIENT_ID}`);
    expect(entries.at(-1)?.line).toMatch(new RegExp(`^GET /c/nothing-here\\.ics 404 \\d+\\.\\dms ${CLIENT_ID}$`));
  });
});
