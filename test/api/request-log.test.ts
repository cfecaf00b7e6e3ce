// One request logger (http/log.ts) for the API and the pages: the same line and fields, and
// a share view's slug (its capability) never reaches the log.
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import type { LogFields } from "../../functions/src/domain/deps.js";
import { logUnexpected } from "../../functions/src/http/log.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";

const t = appPerTest();
let entries: Array<{ line: string; fields?: LogFields }>;

beforeEach(() => {
  entries = [];
  t.deps.log = (line, fields) => entries.push({ line, fields });
});

const LINE = /^GET (\S+) (\d{3}) \d+\.\dms (req_\S+)$/;

describe("the request log", () => {
  it("writes one line per API request with method, path, status, latency and request id", async () => {
    const res = await request(t.app).get("/v1/nothing-here").expect(404);
    const requestId = res.headers["x-request-id"];
    expect(entries).toEqual([
      {
        line: expect.stringMatching(LINE),
        fields: {
          method: "GET",
          path: "/v1/nothing-here",
          status: 404,
          latency_ms: expect.any(Number),
          request_id: requestId,
        },
      },
    ]);
    expect(entries[0].line.endsWith(` ${requestId}`)).toBe(true);
  });

  it("writes the same line for a page, with a share view's slug left out", async () => {
    const pages = createPagesApp(t.deps);
    await request(pages).get("/v/secret-capability-slug").expect(404);
    await request(pages).get("/c/some-calendar").expect(404);
    expect(entries.map((e) => e.fields?.path)).toEqual(["/v/{slug}", "/c/some-calendar"]);
    expect(entries.map((e) => LINE.exec(e.line)?.slice(1, 3))).toEqual([
      ["/v/{slug}", "404"],
      ["/c/some-calendar", "404"],
    ]);
    expect(JSON.stringify(entries)).not.toContain("secret-capability-slug");
  });
});

describe("logUnexpected", () => {
  it("logs the stack under what was being done, at ERROR", () => {
    const err = new Error("boom");
    logUnexpected((line, fields) => entries.push({ line, fields }), "page error", err);
    expect(entries).toEqual([{ line: `page error: ${err.stack}`, fields: { severity: "ERROR" } }]);
    entries = [];
    logUnexpected((line, fields) => entries.push({ line, fields }), "feed error", "not an Error");
    expect(entries).toEqual([{ line: "feed error: not an Error", fields: { severity: "ERROR" } }]);
  });

  it("names the request it happened in, when there is one", () => {
    logUnexpected((line, fields) => entries.push({ line, fields }), "page error", "boom", "req_abc");
    expect(entries).toEqual([
      { line: "page error (request req_abc): boom", fields: { severity: "ERROR", request_id: "req_abc" } },
    ]);
  });
});
