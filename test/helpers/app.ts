import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import type { Express } from "express";
import { createApiApp } from "../../functions/src/app.js";
import type { Deps } from "../../functions/src/domain/deps.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";

export const BASE_URL = "https://almanac.test";
export const START = "2026-11-22T10:00:00.000Z";

/** A clock the test moves by hand. */
export function testClock(start = START) {
  let now = Date.parse(start);
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (iso: string) => {
    now = Date.parse(iso);
  };
  return clock;
}

export interface TestApp {
  app: Express;
  deps: Deps;
  clock: ReturnType<typeof testClock>;
  logs: string[];
  dataDir: string;
  http: () => request.Agent;
  close: () => Promise<void>;
}

/** The API app on a fresh SQLite file, with an injected clock and captured log. */
export function createTestApp(options: { clock?: ReturnType<typeof testClock> } = {}): TestApp {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-test-"));
  const store = new SqliteStore(join(dataDir, "almanac.sqlite"));
  const clock = options.clock ?? testClock();
  const logs: string[] = [];
  const deps: Deps = { store, clock, baseUrl: BASE_URL, log: (line) => logs.push(line), cache: new ResponseCache() };
  // Every response of every test is checked against what /openapi.json documents for it.
  const app = createApiApp(deps, undefined, { checkResponses: true });
  return {
    app,
    deps,
    clock,
    logs,
    dataDir,
    http: () => request.agent(app),
    close: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let keyCounter = 0;
export const freshKey = (): string => `key-${process.pid}-${++keyCounter}-${Math.random().toString(36).slice(2)}`;

export interface MintedAgent {
  token: string;
  agentId: string;
  agentName: string;
  credentialId: string;
  calendarId: string;
  calendarSlug: string;
  auth: { Authorization: string };
}

/** Mints an agent through the API. */
export async function mintAgent(
  t: Pick<TestApp, "app">,
  name = "Scout",
  body: Record<string, unknown> = {},
): Promise<MintedAgent> {
  const res = await request(t.app)
    .post("/v1/mint")
    .set("Idempotency-Key", freshKey())
    .send({ name, ...body })
    .expect(200);
  return {
    token: res.body.token,
    agentId: res.body.agent.id,
    agentName: res.body.agent.name,
    credentialId: res.body.credential.id,
    calendarId: res.body.calendar.id,
    calendarSlug: res.body.calendar.slug,
    auth: { Authorization: `Bearer ${res.body.token}` },
  };
}

/** A POST with a fresh idempotency key. */
export function post(t: Pick<TestApp, "app">, path: string, auth?: { Authorization: string }) {
  const req = request(t.app).post(path).set("Idempotency-Key", freshKey());
  return auth ? req.set(auth) : req;
}

export function expectError(res: request.Response, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (typeof res.body.error.message !== "string" || res.body.error.message.length === 0) {
    throw new Error(`error without a message: ${JSON.stringify(res.body)}`);
  }
}
