/**
 * `npm start` runs the server bundled by scripts/bundle.mjs (functions/dist/), not the
 * sources the other tests import: this bundles it afresh into a directory of its own, starts it
 * as `npm start` does (scripts/start.mjs: server.cjs with its node flags), and reaches each part
 * it loads on first use (the API, the pages, the static files of hosting/, MCP, the OpenAPI document).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";

const ROOT = join(import.meta.dirname, "../..");
// One level under functions/, as functions/dist is (disk-paths.ts finds hosting/ from there).
const OUT = join(ROOT, `functions/dist-test-${process.pid}`);
const stops: Array<() => Promise<void>> = [];
let origin: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** `node <npm start's flags> functions/dist/server.cjs` on a fresh data directory, once it answers: its origin. */
async function startBundled(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-bundled-"));
  const port = await freePort();
  const server = spawn(process.execPath, [...nodeFlags, join(OUT, "server.cjs")], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ALMANAC_AUTH_EMULATOR: "off", RATE_LIMITS: "off" },
    stdio: "ignore",
  });
  const exited = new Promise((done) => server.once("exit", done));
  stops.push(async () => {
    server.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  for (let tries = 0; ; tries++) {
    try {
      await fetch(`http://127.0.0.1:${port}/v1/me`);
      return `http://127.0.0.1:${port}`;
    } catch (err) {
      if (tries > 300 || server.exitCode !== null) throw err;
      await new Promise((done) => setTimeout(done, 50));
    }
  }
}

let nodeFlags: string[];

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.mjs"), OUT]);
  ({ NODE_FLAGS: nodeFlags } = (await import(join(ROOT, "scripts/start.mjs"))) as { NODE_FLAGS: string[] });
  origin = await startBundled();
}, 60_000);

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  rmSync(OUT, { recursive: true, force: true });
});

const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "idempotency-key": crypto.randomUUID(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe.skipIf(onFirestore)(
  sqliteOnly("the bundled local server (npm start)", "npm start keeps its data in a SQLite file"),
  () => {
    it("answers the API, with the error envelope", async () => {
      const res = await fetch(`${origin}/v1/me`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    });

    it("mints, creates a calendar and an event, and shows them on the calendar's page", async () => {
      const minted = await post("/v1/mint", { name: "Bundled" });
      expect(minted.status).toBe(200);
      const token = minted.json.token as string;
      const calendar = await post("/v1/calendars", { name: "Launch", visibility: "public" }, token);
      expect(calendar.status).toBe(200);
      const id = calendar.json.id as string;
      const event = await post(`/v1/calendars/${id}/events`, { name: "Kickoff", date: "2027-03-04" }, token);
      expect(event.status).toBe(200);
      const page = await fetch(`${origin}/c/${calendar.json.slug as string}?view=month&date=2027-03-04`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Kickoff");
    });

    it("serves hosting/'s files, the OpenAPI document, MCP and its OAuth metadata", async () => {
      const llms = await fetch(`${origin}/llms.txt`);
      expect(llms.status).toBe(200);
      expect(await llms.text()).toContain("/v1/mint");
      const openapi = await fetch(`${origin}/openapi.json`);
      expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\./);
      const tools = await post("/mcp/public", { jsonrpc: "2.0", id: 1, method: "tools/list" });
      expect(tools.status).toBe(200);
      const listed = (tools.json.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(listed).toEqual(expect.arrayContaining(["create_event", "list_occurrences", "find_free_time"]));
      // /mcp's authorization server, the MCP SDK's auth router, is in the bundle too.
      expect((await fetch(`${origin}/mcp`, { method: "POST" })).status).toBe(401);
      const metadata = await fetch(`${origin}/.well-known/oauth-authorization-server`);
      expect(((await metadata.json()) as { token_endpoint: string }).token_endpoint).toMatch(
        /^http:\/\/localhost:\d+\/token$/,
      );
    });

    it("is strict, and the pages' other characters arrive as written", async () => {
      // Strict, as the ES modules it is made of: "use strict" is the file's first statement.
      expect(readFileSync(join(OUT, "server.cjs"), "utf8")).toMatch(/^"use strict";/);
      const minted = await post("/v1/mint", { name: "Bundled" });
      const token = minted.json.token as string;
      const calendar = await post("/v1/calendars", { name: "Dash – and dot ·", visibility: "public" }, token);
      const id = calendar.json.id as string;
      const event = { name: "Standup", date: "2027-03-04", start_time: "09:00", end_time: "09:15" };
      expect((await post(`/v1/calendars/${id}/events`, event, token)).status).toBe(200);
      const page = await (await fetch(`${origin}/c/${calendar.json.slug as string}?view=month&date=2027-03-04`)).text();
      expect(page).toContain("Dash – and dot ·"); // from the store
      expect(page).toMatch(/–<time datetime="2027-03-04T09:15">/); // from the pages' template (pages/parts.ts)
    });
  },
);
