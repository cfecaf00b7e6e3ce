import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../functions/src/domain/errors.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import { ApiError, errorDocs, statusOf } from "../../functions/src/http/errors.js";
import { startLocalServer } from "../../functions/src/server.js";

const HOSTING = join(import.meta.dirname, "../../hosting");
const PAGES = [
  "start.md",
  "events.md",
  "sharing.md",
  "views-and-layers.md",
  "errors.md",
  "mcp.md",
  "webhooks.md",
  "import.md",
];
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

  it("every error message points to a section that explains its code", () => {
    for (const code of CODES) {
      const target = errorDocs(code);
      const [page, anchor] = target.split("#");
      expect(PAGES.map((p) => `/docs/${p}`)).toContain(page);
      expect(anchor, `${code} names a heading`).toBeTruthy();
      const explained = section(read(page.slice(1)), anchor);
      expect(explained, `${target} is a heading`).toBeDefined();
      expect(explained, `${code} in ${target}`).toMatch(new RegExp(`\\b${code}\\b`));
      expect(new ApiError(code, "do this").message).toBe(`do this (see ${target})`);
    }
    // A message that already names its page is left alone.
    expect(new ApiError("invalid_request", "see /docs/events.md").message).toBe("see /docs/events.md");
  });

  it("every docs section the service's code names exists", () => {
    const named = sourceFiles(join(import.meta.dirname, "../../functions/src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\/docs\/([\w-]+\.md)(?:#([\w-]+))?/g)].map(([, page, anchor]) => ({
        where: `${file.split("functions/src/")[1]}: ${page}${anchor ? `#${anchor}` : ""}`,
        page,
        anchor,
      })),
    );
    expect(named.length).toBeGreaterThan(CODES.length);
    for (const { where, page, anchor } of named) {
      expect(PAGES, where).toContain(page);
      if (anchor) expect(anchors(read(`docs/${page}`)), where).toContain(anchor);
    }
  });

  it("every example's Idempotency-Key works in any POSIX shell: written out, or made by od from /dev/urandom", () => {
    const sources = ["../README.md", "llms.txt", ...PAGES.map((p) => `docs/${p}`)];
    const made = new Set<string>();
    let examples = 0;
    for (const source of sources) {
      for (const block of read(source)
        .split("```")
        .filter((_, i) => i % 2 === 1)) {
        for (const [, quote, value] of block.matchAll(/-H (["'])Idempotency-Key: (.*?)\1/g)) {
          examples += 1;
          const substituted = /\$\((.+)\)/.exec(value)?.[1];
          if (quote === "'" || substituted === undefined) expect(value, source).toMatch(/^[\w-]{1,200}$/);
          else made.add(substituted);
        }
      }
    }
    expect(examples).toBeGreaterThanOrEqual(15);
    // One command everywhere, run here by the POSIX shell (dash on Debian) as a reader's shell would.
    expect([...made]).toEqual(["od -An -N8 -tx1 /dev/urandom | tr -d ' \\n'"]);
    const keys = [1, 2].map(() => execFileSync("sh", ["-c", `printf %s "$(${[...made][0]})"`], { encoding: "utf8" }));
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("errors.md's quota table has a row for every quota a create can be refused by, with what frees a place", () => {
    const rows = new Map(
      [...read("docs/errors.md").matchAll(/^\| `(\w+)` \| ([\d,]+) \| .+ \| (.+) \|$/gm)].map(
        ([, quota, limit, frees]) => [quota, { limit: Number(limit.replace(/,/g, "")), frees }],
      ),
    );
    // Never refused: past it the oldest retired slug is released (docs/api.md#calendars-and-slugs).
    const refusable = Object.entries(DEFAULT_QUOTAS).filter(([quota]) => quota !== "retired_slugs_per_agent");
    expect([...rows.keys()].sort()).toEqual(refusable.map(([quota]) => quota).sort());
    for (const [quota, limit] of refusable) expect(rows.get(quota)?.limit, quota).toBe(limit);
    // test/api/calendar-delete.test.ts shows the server giving the place back.
    expect(rows.get("calendars_per_agent")?.frees).toMatch(/^deleting a calendar/);
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

/** GitHub-style heading anchor: lowercased, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replace(/ /g, "-");

/** The headings of a Markdown page, outside fenced code, with their level and line. */
function headings(markdown: string): { level: number; anchor: string; line: number }[] {
  let fenced = false;
  return markdown.split("\n").flatMap((text, line) => {
    if (text.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) (.+)$/.exec(text);
    return heading ? [{ level: heading[1].length, anchor: anchorOf(heading[2]), line }] : [];
  });
}

const anchors = (markdown: string): string[] => headings(markdown).map((h) => h.anchor);

/** The text under the heading with this anchor, up to the next heading of its level or above. */
function section(markdown: string, anchor: string): string | undefined {
  const all = headings(markdown);
  const at = all.findIndex((h) => h.anchor === anchor);
  if (at < 0) return undefined;
  const end = all.slice(at + 1).find((h) => h.level <= all[at].level)?.line;
  return markdown.split("\n").slice(all[at].line, end).join("\n");
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}
