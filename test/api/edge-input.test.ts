import { gzipSync } from "node:zlib";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { TestApp } from "../helpers/app.js";
import { expectError, freshKey, post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";
import { createSiteTestApp } from "../pages/site.js";

/**
 * Input that never reaches a handler (docs/api.md#ids-and-text, #bounded-work): a path that cannot be
 * percent-decoded is 400 in the format of where it was sent (JSON envelope, HTML page, plain
 * text), a compressed body is 415, a query value over 1,000 characters is 400. Never a 500.
 */

let t: TestApp;
let owner: MintedAgent;
let calendar: { id: string; slug: string };
let viewSlug: string;

beforeAll(async () => {
  t = createSiteTestApp();
  owner = await mintAgent(t, "Edge Owner");
  calendar = (
    await post(t, "/v1/calendars", owner.auth)
      .send({ name: "Edge", slug: "edge-cal", visibility: "public" })
      .expect(200)
  ).body;
  viewSlug = (await post(t, `/v1/calendars/${calendar.id}/views`, owner.auth).send({ name: "Edge view" }).expect(200))
    .body.slug;
});
afterAll(() => t.close());

const noInternals = (res: request.Response) => {
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(/URIError|at .*\.js:\d+|Failed to decode/);
};

describe("a path that cannot be percent-decoded", () => {
  it("is 400 invalid_request in the JSON envelope on /v1", async () => {
    for (const path of [
      "/v1/calendars/%ZZ",
      `/v1/calendars/%ZZ/events`,
      `/v1/calendars/${calendar.id}/events/%E0%A4%A`,
      `/v1/calendars/${calendar.id}/events/%C0%AF`,
      "/v1/agent-credentials/%",
    ]) {
      for (const auth of [undefined, owner.auth]) {
        const res = await (auth ? request(t.app).get(path).set(auth) : request(t.app).get(path));
        noInternals(res);
        if (path.startsWith("/v1/agent-credentials") && res.status === 405) continue; // DELETE only: 405 comes first
        if (res.status === 401) continue; // no token on a route that needs one: 401 comes first
        expectError(res, 400, "invalid_request");
        expect(res.type).toBe("application/json");
      }
    }
    const del = await request(t.app).delete("/v1/agent-credentials/%ZZ").set(owner.auth);
    expectError(del, 400, "invalid_request");
  });

  it("is a 400 HTML page on /c and /v", async () => {
    for (const path of ["/c/%ZZ", "/v/%ZZ", "/c/%ZZ/purpose.md", "/c/%E0%A4%A", "/c/%ZZ/anything/below"]) {
      const res = await request(t.app).get(path);
      noInternals(res);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.type).toBe("text/html");
      expect(res.text).toContain("<!doctype html>");
    }
  });

  it("is 400 plain text on a feed", async () => {
    for (const path of ["/c/%ZZ.ics", "/v/%ZZ.ics"]) {
      const res = await request(t.app).get(path);
      noInternals(res);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.type).toBe("text/plain");
    }
  });
});

describe("ids and slugs no record can have, on pages and feeds", () => {
  it("are 404 in the page's or the feed's format", async () => {
    for (const path of ["/c/UPPER", "/c/..", "/c/a%2Fb", "/v/%2E%2E", "/v/Not_A_Slug"]) {
      const res = await request(t.app).get(path);
      expect([path, res.status, res.type]).toEqual([path, 404, "text/html"]);
    }
    for (const path of ["/c/UPPER.ics", "/c/a%2Fb.ics", "/v/Not_A_Slug.ics", `/c/${calendar.slug}%2F..%2F.ics`]) {
      const res = await request(t.app).get(path);
      expect([path, res.status, res.type]).toEqual([path, 404, "text/plain"]);
    }
  });
});

describe("Content-Encoding", () => {
  it("is 415 unsupported_media_type on /v1 for anything but identity, and nothing is created", async () => {
    const body = JSON.stringify({ name: "Zipped" });
    for (const encoding of ["gzip", "deflate", "br", "x-unknown", "identity, gzip"]) {
      const res = await request(t.app)
        .post("/v1/mint")
        .set("Idempotency-Key", freshKey())
        .set("Content-Type", "application/json")
        .set("Content-Encoding", encoding)
        .send(encoding === "gzip" ? gzipSync(body) : body);
      expectError(res, 415, "unsupported_media_type");
      expect(res.body.error.message).toMatch(/uncompressed/);
    }
    const agents = await t.deps.store.query<{ name: string }>(paths.agents());
    expect(agents.map((a) => a.data.name)).not.toContain("Zipped");
  });

  it("identity is accepted", async () => {
    const res = await request(t.app)
      .post("/v1/mint")
      .set("Idempotency-Key", freshKey())
      .set("Content-Type", "application/json")
      .set("Content-Encoding", "identity")
      .send(JSON.stringify({ name: "Plain" }));
    expect(res.status).toBe(200);
  });
});

describe("query values over 1,000 characters", () => {
  const long = "x".repeat(1001);

  it("are 400 invalid_request on /v1, naming the parameter; 1,000 is fine", async () => {
    const events = `/v1/calendars/${calendar.id}/events`;
    const res = await request(t.app).get(`${events}?category=${long}`);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details.field).toBe("category");
    expect((await request(t.app).get(`${events}?category=${"x".repeat(1000)}`)).status).toBe(200);
    // Also a parameter the route does not know, and a repeated one.
    expectError(await request(t.app).get(`${events}?unknown=${long}`), 400, "invalid_request");
    expectError(await request(t.app).get(`${events}?category=a&category=${long}`), 400, "invalid_request");
    expectError(await request(t.app).get(`/v1/me?x=${long}`).set(owner.auth), 400, "invalid_request");
  });

  it("are 400 on pages (HTML) and feeds (plain text)", async () => {
    for (const path of [`/c/${calendar.slug}`, `/v/${viewSlug}`, `/c/${calendar.slug}/purpose.md`]) {
      const res = await request(t.app).get(`${path}?date=${long}`);
      expect([path, res.status, res.type]).toEqual([path, 400, "text/html"]);
    }
    for (const path of [`/c/${calendar.slug}.ics`, `/v/${viewSlug}.ics`]) {
      const res = await request(t.app).get(`${path}?x=${long}`);
      expect([path, res.status, res.type]).toEqual([path, 400, "text/plain"]);
    }
    expect((await request(t.app).get(`/c/${calendar.slug}?x=${"y".repeat(1000)}`)).status).toBe(200);
  });
});
