import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../functions/src/domain/errors.js";
import { ApiError, errorDocs, statusOf } from "../../functions/src/http/errors.js";
import { startLocalServer } from "../../functions/src/server.js";

const HOSTING = join(import.meta.dirname, "../../hosting");
const PAGES = ["start.md", "events.md", "sharing.md", "views-and-layers.md", "errors.md", "mcp.md", "webhooks.md"];
const CODES = ERROR_CODES;
const read = (path: string) => readFileSync(join(HOSTING, path), "utf8");

let origin: string;
let close: () => Promise<void>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "almanac-docs-"));
  const local = await startLocalServer({ port: 0, dataDir, log: () => {} });
  origin = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
  close = local.close;
});
afterAll(async () => {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the docs for agents, served by the local server", () => {
  it("serves /llms.txt as UTF-8 plain text", async () => {
    const res = await fetch(`${origin}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe(read("llms.txt"));
  });

  it("serves every docs page as UTF-8 Markdown", async () => {
    expect(readdirSync(join(HOSTING, "docs")).sort()).toEqual([...PAGES].sort());
    for (const page of PAGES) {
      const res = await fetch(`${origin}/docs/${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get("content-type"), page).toBe("text/markdown; charset=utf-8");
      expect(await res.text()).toBe(read(`docs/${page}`));
    }
  });

  it("leaves the API to the API app: /v1 and /openapi.json still answer JSON", async () => {
    const spec = await fetch(`${origin}/openapi.json`);
    expect(spec.headers.get("content-type")).toMatch(/^application\/json/);
    const missing = await fetch(`${origin}/v1/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("what the docs say", () => {
  it("llms.txt explains the service, the first calls with curl, and links every page and /openapi.json", () => {
    const llms = read("llms.txt");
    expect(llms).toMatch(/^# Almanac\n\n> /);
    expect(llms.match(/curl /g)?.length).toBeGreaterThanOrEqual(3);
    for (const call of ['POST "$BASE/v1/mint"', "/v1/calendars/$CALENDAR_ID/events", "/occurrences?from="])
      expect(llms).toContain(call);
    for (const page of PAGES) expect(llms).toContain(`(/docs/${page})`);
    expect(llms).toContain("(/openapi.json)");
  });

  it("errors.md explains every error code under its own heading, with its status", () => {
    const errors = read("docs/errors.md");
    for (const code of CODES) {
      const section = errors.split(`\n### ${code}\n`)[1];
      expect(section, code).toBeDefined();
      expect(section.startsWith(`**${statusOf(code)}.**`), code).toBe(true);
    }
  });

  it("every error message points to a page that explains its code", () => {
    for (const code of CODES) {
      const page = errorDocs(code);
      expect(PAGES.map((p) => `/docs/${p}`)).toContain(page);
      expect(read(page.slice(1)), `${code} in ${page}`).toContain(`\`${code}\``);
      expect(new ApiError(code, "do this").message).toBe(`do this (see ${page})`);
    }
    // A message that already names its page is left alone.
    expect(new ApiError("invalid_request", "see /docs/events.md").message).toBe("see /docs/events.md");
  });

  it("links between the docs lead to existing pages and headings", () => {
    const sources = ["llms.txt", ...PAGES.map((p) => `docs/${p}`)];
    for (const source of sources) {
      for (const [, page, anchor] of read(source).matchAll(/\]\(\/docs\/([\w-]+\.md)(?:#([\w-]+))?\)/g)) {
        expect(PAGES, `${source} -> ${page}`).toContain(page);
        if (anchor) expect(anchors(read(`docs/${page}`)), `${source} -> ${page}#${anchor}`).toContain(anchor);
      }
    }
  });
});

/** GitHub-style heading anchors: lowercased, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]
      .toLowerCase()
      .replace(/[^\w\- ]/g, "")
      .replace(/ /g, "-"),
  );
}
