/**
 * Fuzzing as a standing test (issue 9): requests drawn from `/openapi.json` for every
 * operation, with valid-looking, boundary and hostile values in every path parameter, query
 * parameter and body field, as the owner of a seeded world, a reader, a stranger, a revoked
 * or garbage token, or nobody; plus the public pages and feeds. Then requests built for edges
 * every route shares: JSON-RPC batches and messages to /mcp (mcp-messages.ts), JSON nested
 * 10,000 levels deep to every operation and to /mcp, and every route's path spelled otherwise
 * (crafted.ts). Every answer must hold what the service promises for any input: never a 5xx,
 * the JSON error envelope for every 4xx of `/v1` and `/openapi.json` (a JSON-RPC error on
 * /mcp), errors under 64 KB, and no answer slower than 2 s (a bound on pathological work,
 * repeated once before it counts so a busy machine does not fail the run); and the server
 * still answers afterwards.
 *
 *   FUZZ_RUNS      requests in all (default 3000; a sixth of them pages and feeds, a fifteenth
 *                  POSTs to /mcp), besides a few hundred built for the edges, whatever the number
 *   FUZZ_SEED      fast-check seed (default: a fixed one, so CI repeats the same requests; `random` for a new
 *                  one, printed with any failure)
 *   FUZZ_FINDINGS  file to write the grouped findings to (markdown), if set
 *   FUZZ_TRACE     file to write every request line and answer to, if set
 *   FUZZ_HEAVY_SERIES  daily series in each of the heavy host's 20 layers (default 50)
 */
import "./env.js";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import {
  answerProblems,
  countAnswer,
  craftedAnswerProblems,
  mcpAnswerProblems,
  Findings,
  findingsMarkdown,
  fiveXx,
  newStats,
  normalize,
  requestLine,
  SLOW_MS,
  type FailureKind,
} from "./findings.js";
import {
  DEEP_BODIES,
  OVER_LIMIT_BODY,
  PAGE_TEMPLATES,
  concretePath,
  deepField,
  deepMcpMessages,
  deepToolCalls,
  routesOf,
  spellings,
} from "./crafted.js";
import {
  isReadableMessage,
  mcpPostArb,
  mcpRequest,
  realizeMcp,
  TOOLS_LIST,
  type ListedTool,
  type McpPost,
} from "./mcp-messages.js";
import { apiRecipeArb, craftedRecipe, operationsOf, pageRecipeArb, type Recipe } from "./recipe.js";
import { realize, type SendState } from "./wire.js";
import { send, type RawRequest, type RawResponse } from "./send.js";
import { seedHeavy, type Heavy } from "./heavy.js";
import { seedWorld, type World } from "./world.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
/** CI runs the same requests every time, so a red run is about the change; explore with FUZZ_SEED=random. */
const DEFAULT_SEED = 20261123;
const SEED =
  process.env.FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const PAGE_RUNS = Math.ceil(RUNS / 6);
const HEAVY_SERIES = Number(process.env.FUZZ_HEAVY_SERIES ?? 50);
const MCP_RUNS = Math.ceil(RUNS / 15);
const API_RUNS = RUNS - PAGE_RUNS - MCP_RUNS;
/** A batch may take longer than one request: this much more per message beyond the first. */
const SLOW_MS_PER_MESSAGE = 20;
/** The fuzzer deletes and changes what it finds; a fresh world keeps half of its ids real. */
const WORLD_EVERY = 400;
/** Generous: the run itself is a few thousand sequential requests. */
const timeoutFor = (runs: number) => 60_000 + runs * 100;

if (!Number.isInteger(RUNS) || RUNS < 3)
  throw new Error(`FUZZ_RUNS must be an integer of at least 3, not ${process.env.FUZZ_RUNS}`);
if (!Number.isInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);

let t: TestApp;
let server: Server;
let port: number;
let world: World;
let heavy: Heavy;
let seedMs = 0;
let sent = 0;
const state: SendState = { keyCounter: 0, lastKey: null, run: `${process.pid}-${Date.now().toString(36)}` };
const stats = newStats();
const findings = new Findings();
/** Response contract violations the test app reports (an undocumented code becomes a 500). */
const contractReports: string[] = [];
/** FUZZ_TRACE=file: every request line and answer, to see what the run covered. */
const trace: string[] | null = process.env.FUZZ_TRACE ? [] : null;

beforeAll(async () => {
  t = createTestApp();
  const api = t.app;
  const pages = createPagesApp(t.deps);
  // Dispatched by path, as Hosting rewrites and the local server do.
  server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    (path.startsWith("/c/") || path.startsWith("/v/") ? pages : api)(req, res);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  port = (server.address() as AddressInfo).port;
  const started = performance.now();
  heavy = await seedHeavy(t, HEAVY_SERIES);
  world = await seedWorld(t, heavy);
  seedMs = performance.now() - started;
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    contractReports.push(args.map(String).join(" "));
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  const slowest = stats.slowest ? `${stats.slowest.ms.toFixed(0)} ms (${stats.slowest.line.slice(0, 120)})` : "-";
  console.log(
    `fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}: ${stats.requests} requests, ${fiveXx(stats)} 5xx, ` +
      `slowest ${slowest}, ${findings.total} failures (seeding took ${(seedMs / 1000).toFixed(1)} s)`,
  );
  await new Promise<void>((done) => server.close(() => done()));
  await t.close();
});

/** Sends one recipe and records anything the service must never answer. */
async function exchange(recipe: Recipe): Promise<void> {
  await freshWorldNow();
  const req = realize(recipe, world, state);
  await sendAndCheck(recipe, req, (res) => answerProblems(req, res));
}

/** The fuzzer deletes and changes what it finds: every WORLD_EVERY requests, a fresh world. */
async function freshWorldNow(): Promise<void> {
  if (++sent % WORLD_EVERY === 0) world = await seedWorld(t, heavy);
}

/** Sends one request and records what `problemsOf` finds in its answer, and an answer slower than `slowMs`. */
async function sendAndCheck(
  recipe: Recipe,
  req: RawRequest,
  problemsOf: (res: RawResponse) => Array<{ kind: FailureKind; cause: string }>,
  slowMs = SLOW_MS,
): Promise<void> {
  const logsBefore = t.logs.length;
  const reportsBefore = contractReports.length;
  let res: RawResponse;
  try {
    res = await send(port, req);
  } catch (err) {
    record("no answer", normalize((err as Error).message), recipe, req, null);
    return;
  }
  countAnswer(stats, req, res);
  trace?.push(
    `${res.status} ${res.ms.toFixed(0)}ms ${requestLine(req).slice(0, 200)} ${req.headers["Content-Encoding"] ?? ""} ` +
      res.text.slice(0, 160).replace(/\s+/g, " "),
  );
  if (res.ms > slowMs) {
    const again = await send(port, asRepeat(req)).catch(() => null);
    if (!again || again.ms > slowMs) {
      const repeat = again ? `${again.ms.toFixed(0)} ms` : "no answer";
      record("slow", `over ${slowMs} ms, and again on repeat`, recipe, req, {
        ...res,
        text: `(repeat: ${repeat}) ${res.text}`,
      });
    } else
      stats.slowOnce.push(`${res.ms.toFixed(0)} ms then ${again.ms.toFixed(0)} ms: ${requestLine(req).slice(0, 200)}`);
  }
  for (const problem of problemsOf(res)) {
    const why =
      problem.kind === "5xx" ? serverSideCause(t.logs.slice(logsBefore), contractReports.slice(reportsBefore)) : "";
    record(problem.kind, why ? `${problem.cause} — ${why}` : problem.cause, recipe, req, res);
  }
}

/** One POST to /mcp: a batch or a single message. */
async function exchangeMcp(post: McpPost): Promise<void> {
  await freshWorldNow();
  const req = realizeMcp(post, world);
  const first = post.messages[0] as { method?: unknown } | null;
  const what = post.batch ? "a batch" : typeof first?.method === "string" ? first.method : "not a request";
  const recipe = craftedRecipe(`POST /mcp (${what})`, "POST", post.caller);
  const slowMs = SLOW_MS + SLOW_MS_PER_MESSAGE * (post.messages.length - 1);
  const readable = isReadableMessage(req);
  await sendAndCheck(recipe, req, (res) => mcpAnswerProblems(res, { readable }), slowMs);
}

/** A request built by hand, as the world's owner; a POST carries a fresh Idempotency-Key. */
function ownerRequest(method: string, path: string, body?: string): RawRequest {
  const headers: Record<string, string> = { Authorization: `Bearer ${world.tokens.owner}` };
  if (method === "POST") headers["Idempotency-Key"] = `fuzz-${state.run}-${++state.keyCounter}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return { method, path, headers, body: body === undefined ? undefined : Buffer.from(body, "utf8") };
}

const ownerMcpRequest = (body: string) => mcpRequest(body, { authorization: `Bearer ${world.tokens.owner}` });

/** The tools as the server lists them, with their input schemas. */
async function listTools(): Promise<ListedTool[]> {
  const res = await send(port, ownerMcpRequest(TOOLS_LIST));
  expect(res.status, res.text.slice(0, 200)).toBe(200);
  return (JSON.parse(res.text) as { result: { tools: ListedTool[] } }).result.tools;
}

/** The server still answers: a new agent mints, reads itself, and lists the MCP tools, over the socket. */
async function expectAlive(): Promise<void> {
  const mint = await send(port, {
    method: "POST",
    path: "/v1/mint",
    headers: { "Content-Type": "application/json", "Idempotency-Key": `fuzz-${state.run}-alive-${++state.keyCounter}` },
    body: Buffer.from(JSON.stringify({ name: "Still Here" })),
  });
  expect(mint.status, mint.text.slice(0, 200)).toBe(200);
  const token = (JSON.parse(mint.text) as { token: string }).token;
  const me = await send(port, { method: "GET", path: "/v1/me", headers: { Authorization: `Bearer ${token}` } });
  expect(me.status, me.text.slice(0, 200)).toBe(200);
  const everyTool = { ...mcpRequest(TOOLS_LIST, { authorization: `Bearer ${token}` }), path: "/mcp?toolsets=all" };
  const tools = await send(port, everyTool);
  expect(tools.status, tools.text.slice(0, 200)).toBe(200);
  expect((JSON.parse(tools.text) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(20);
}

/** The same request again; a write gets a new Idempotency-Key so it is not answered from storage. */
function asRepeat(req: RawRequest): RawRequest {
  if (!req.headers["Idempotency-Key"]) return req;
  return { ...req, headers: { ...req.headers, "Idempotency-Key": `fuzz-${state.run}-repeat-${++state.keyCounter}` } };
}

/** What the server said about a 5xx: the crash it logged, or the response contract it broke. */
function serverSideCause(logs: string[], reports: string[]): string {
  const contract = reports.find((r) => r.includes("response contract violation"));
  if (contract) return `response contract: ${normalize(contract.slice(contract.indexOf("): ") + 3))}`;
  const crash = logs.find((line) => /^(internal|page|feed) error:/.test(line));
  return crash ? normalize(crash.split("\n")[0]) : "";
}

function record(kind: FailureKind, cause: string, recipe: Recipe, req: RawRequest, res: RawResponse | null): void {
  findings.add({
    kind,
    cause,
    recipe,
    request: req,
    status: res?.status ?? null,
    response: res?.text ?? "",
    ms: res?.ms ?? null,
  });
}

function summary(): string {
  const groups = findings.list();
  const lines = groups.map(
    (g) => `- ${g.kind}: ${g.cause} (${g.count}×), e.g. ${requestLine(g.examples[0].request).slice(0, 160)}`,
  );
  return [
    `${findings.total} failures in ${groups.length} groups; reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`,
    ...lines,
  ].join("\n");
}

function writeFindings(): void {
  if (trace && process.env.FUZZ_TRACE) writeFileSync(process.env.FUZZ_TRACE, trace.join("\n"));
  const file = process.env.FUZZ_FINDINGS;
  if (!file) return;
  writeFileSync(
    file,
    findingsMarkdown({
      seed: SEED,
      runs: RUNS,
      pageRuns: PAGE_RUNS,
      stats,
      findings,
      finishedAt: new Date().toISOString(),
    }),
  );
}

describe(`fuzzing from /openapi.json (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS})`, () => {
  it("the document lists every operation with its parameters and bodies", async () => {
    const res = await request(t.app).get("/openapi.json").expect(200);
    const operations = operationsOf(res.body);
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.some((op) => op.body && op.params.some((p) => p.in === "path"))).toBe(true);
  });

  it(
    "every operation, any input: no 5xx, the envelope on every 4xx, no answer over 2 s",
    async () => {
      const doc = (await request(t.app).get("/openapi.json").expect(200)).body;
      const recipes = fc.oneof(...operationsOf(doc).map(apiRecipeArb));
      await fc.assert(fc.asyncProperty(recipes, exchange), { seed: SEED, numRuns: API_RUNS, endOnFailure: true });
      writeFindings();
      expect(findings.total, summary()).toBe(0);
    },
    timeoutFor(API_RUNS),
  );

  it(
    "pages and feeds, any slug and query: no 5xx, no answer over 2 s",
    async () => {
      const before = findings.total;
      await fc.assert(fc.asyncProperty(pageRecipeArb, exchange), {
        seed: SEED + 1,
        numRuns: PAGE_RUNS,
        endOnFailure: true,
      });
      writeFindings();
      expect(findings.total - before, summary()).toBe(0);
    },
    timeoutFor(PAGE_RUNS),
  );

  it(
    "JSON-RPC batches of 1 to 200 messages, and single messages, to /mcp: no 5xx, JSON-RPC answers, errors under 64 KB",
    async () => {
      const before = findings.total;
      const tools = await listTools();
      await fc.assert(fc.asyncProperty(mcpPostArb(tools), exchangeMcp), {
        seed: SEED + 2,
        numRuns: MCP_RUNS,
        endOnFailure: true,
      });
      writeFindings();
      expect(findings.total - before, summary()).toBe(0);
      await expectAlive();
    },
    timeoutFor(MCP_RUNS * 10),
  );

  it("JSON nested 10,000 levels deep, to every operation and to /mcp: no 5xx, bounded errors of the right shape", async () => {
    const before = findings.total;
    world = await seedWorld(t, heavy);
    const doc = (await request(t.app).get("/openapi.json").expect(200)).body;
    for (const op of operationsOf(doc)) {
      const path = concretePath(op.path, world);
      const field = Object.keys(op.body?.properties ?? {})[0] ?? "name";
      for (const deep of [...DEEP_BODIES, deepField(field)]) {
        const req = ownerRequest(op.method, path, deep.text);
        const recipe = craftedRecipe(`${op.method} ${op.path} (${deep.label})`, op.method, "owner");
        await sendAndCheck(recipe, req, (res) => craftedAnswerProblems(req, res, { jsonRpcToo: false }));
      }
    }
    const overLimit = ownerRequest("POST", "/v1/calendars", OVER_LIMIT_BODY.text);
    await sendAndCheck(
      craftedRecipe(`POST /v1/calendars (${OVER_LIMIT_BODY.label})`, "POST", "owner"),
      overLimit,
      (res) => craftedAnswerProblems(overLimit, res, { jsonRpcToo: false }),
    );

    const tools = await listTools();
    const toolCalls = tools.flatMap((tool) =>
      deepToolCalls(tool.name, Object.keys(tool.inputSchema.properties ?? {})[0] ?? "x"),
    );
    for (const deep of [...DEEP_BODIES, OVER_LIMIT_BODY, ...deepMcpMessages(), ...toolCalls]) {
      const req = ownerMcpRequest(deep.text);
      const readable = isReadableMessage(req);
      await sendAndCheck(craftedRecipe(`POST /mcp (${deep.label})`, "POST", "owner"), req, (res) =>
        mcpAnswerProblems(res, { readable }),
      );
    }
    writeFindings();
    expect(findings.total - before, summary()).toBe(0);
    await expectAlive();
  }, 120_000);

  it("every route spelled otherwise (case, trailing and doubled slashes): no 5xx, the envelope on errors, under 64 KB", async () => {
    const before = findings.total;
    world = await seedWorld(t, heavy);
    const doc = (await request(t.app).get("/openapi.json").expect(200)).body;
    for (const route of routesOf(operationsOf(doc))) {
      const mcp = route.template === "/mcp" || route.template === "/mcp/public";
      for (const path of spellings(route.template, world)) {
        const req = mcp
          ? { ...ownerMcpRequest(TOOLS_LIST), path }
          : ownerRequest(route.method, path, route.body ? "{}" : undefined);
        const recipe = craftedRecipe(`${route.method} ${route.template}`, route.method, "owner");
        await sendAndCheck(recipe, req, (res) => craftedAnswerProblems(req, res, { jsonRpcToo: mcp }));
      }
    }
    // The pages answer HTML: what holds for their spellings is no 5xx.
    for (const template of PAGE_TEMPLATES) {
      for (const path of spellings(template, world)) {
        const req = ownerRequest("GET", path);
        await sendAndCheck(craftedRecipe(`GET ${template}`, "GET", "owner"), req, (res) => answerProblems(req, res));
      }
    }
    writeFindings();
    expect(findings.total - before, summary()).toBe(0);
    await expectAlive();
  }, 120_000);
});
