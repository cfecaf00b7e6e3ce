/**
 * The feed fetcher (outbound/fetch-feed.ts) against a loopback https server: conditional GETs,
 * the address policy on the URL, on every redirect and after DNS, and its time and size limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFeedFetcher, type FeedValidators } from "../../functions/src/outbound/fetch-feed.js";
import { icsOf, startFeedServer, type FeedServer } from "../helpers/feed-server.js";
import { lookupFrom } from "../helpers/lookup.js";

const NONE: FeedValidators = { etag: null, lastModified: null };
const BODY = icsOf([{ uid: "a@test", summary: "A", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z" }]);

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer(BODY);
});
afterAll(async () => {
  await server.close();
});

const loopback = (options: { timeoutMs?: number; maxBytes?: number } = {}) =>
  createFeedFetcher({ allowLoopback: true, ca: server.ca, ...options });

describe("createFeedFetcher", () => {
  it("reads the feed with its validators, and answers unchanged when they still hold", async () => {
    server.answer = null;
    const first = await loopback()(server.url, NONE);
    expect(first).toEqual({
      outcome: "changed",
      text: BODY,
      validators: { etag: expect.stringMatching(/^"[0-9a-f]{16}"$/), lastModified: "Sun, 22 Nov 2026 09:00:00 GMT" },
    });
    const held = first.outcome === "changed" ? first.validators : NONE;
    expect(await loopback()(server.url, held)).toEqual({ outcome: "unchanged" });
    expect(server.requests.at(-1)).toEqual({ ifNoneMatch: held.etag, ifModifiedSince: held.lastModified });
  });

  it("refuses what is not https, and loopback or private hosts unless loopback is allowed", async () => {
    const deployed = createFeedFetcher({ allowLoopback: false, ca: server.ca });
    const refusals: [string, RegExp][] = [
      [server.url.replace("https:", "http:"), /^refused: not an https URL$/],
      [server.url, /^refused: 127\.0\.0\.1 is a loopback address$/],
      ["https://10.0.0.1/team.ics", /^refused: 10\.0\.0\.1 is a private address$/],
      ["https://169.254.169.254/latest/", /a cloud metadata address$/],
      ["https://localhost/team.ics", /^refused: a feed host must not name a loopback host$/],
    ];
    for (const [url, error] of refusals) {
      const fetched = await deployed(url, NONE);
      expect(fetched.outcome, url).toBe("failed");
      expect(fetched.outcome === "failed" && fetched.error, url).toMatch(error);
    }
  });

  it("judges the addresses a name resolves to at connection, whatever the attach saw", async () => {
    const rebound = createFeedFetcher({ allowLoopback: false, lookup: lookupFrom({ "feed.example": ["10.9.8.7"] }) });
    const fetched = await rebound("https://feed.example/team.ics", NONE);
    expect(fetched).toEqual({ outcome: "failed", error: "refused: feed.example resolves to a private address" });
  });

  it("follows a redirect judged as the first URL, and at most three", async () => {
    const port = new URL(server.url).port;
    server.answer = { status: 302, headers: { location: `https://10.0.0.1:${port}/team.ics` } };
    expect(await loopback()(server.url, NONE)).toEqual({
      outcome: "failed",
      error: "refused: 10.0.0.1 is a private address",
    });
    server.answer = { status: 301, headers: { location: "/elsewhere.ics" } };
    expect(await loopback()(server.url, NONE)).toEqual({ outcome: "failed", error: "more than 3 redirects" });
    server.answer = null;
  });

  it("fails past its size or its time, and on any status but 200 and 304", async () => {
    server.answer = null;
    expect(await loopback({ maxBytes: 100 })(server.url, NONE)).toEqual({
      outcome: "failed",
      error: "the feed is larger than 100 bytes",
    });
    server.answer = { status: 404 };
    expect(await loopback()(server.url, NONE)).toEqual({ outcome: "failed", error: "the feed's server answered 404" });
    server.answer = { status: 200, delayMs: 1_000 };
    expect(await loopback({ timeoutMs: 100 })(server.url, NONE)).toEqual({
      outcome: "failed",
      error: "no whole answer within 0.1 s",
    });
    server.answer = null;
  });
});
