/**
 * What the fuzz test asserts of every answer, and how failures are grouped and written down
 * so that each distinct cause appears once, with examples that can be replayed by hand.
 */
import type { Recipe } from "./recipe.js";
import type { RawRequest, RawResponse } from "./send.js";

/** A correctness bound on pathological work (issue 9), not a benchmark. */
export const SLOW_MS = 2000;

export type FailureKind =
  "5xx" | "not the error envelope" | "not a JSON-RPC answer" | "error too large" | "slow" | "no answer" | "dead";

/** An error answer is short whatever it was sent: it never echoes a hostile input back at length. */
export const MAX_ERROR_BYTES = 64 * 1024;

export interface Failure {
  kind: FailureKind;
  /** What went wrong, without ids, for grouping. */
  cause: string;
  recipe: Recipe;
  request: RawRequest;
  status: number | null;
  response: string;
  ms: number | null;
}

/** The path is served by the API app: `/v1` and `/openapi.json` answer errors as the JSON envelope. */
export const isApiPath = (rawPath: string): boolean => {
  const path = rawPath.split("?", 1)[0];
  return path === "/openapi.json" || path === "/v1" || path.startsWith("/v1/");
};

/** What any input may get: never a 5xx; on `/v1` and `/openapi.json` every 4xx is the envelope. */
export function answerProblems(
  request: RawRequest,
  response: RawResponse,
): Array<{ kind: FailureKind; cause: string }> {
  const problems: Array<{ kind: FailureKind; cause: string }> = [];
  if (response.status >= 500)
    problems.push({ kind: "5xx", cause: `${response.status} ${errorCode(response.text) ?? "(no code)"}` });
  // HEAD answers have no body to check.
  if (response.status >= 400 && response.status < 500 && isApiPath(request.path) && request.method !== "HEAD") {
    const problem = envelopeProblem(response);
    if (problem) problems.push({ kind: "not the error envelope", cause: `${response.status}: ${problem}` });
  }
  return problems;
}

export function envelopeProblem(response: RawResponse): string | null {
  const type = String(response.headers["content-type"] ?? "");
  if (!/^application\/json\b/i.test(type))
    return `Content-Type \`${type || "(none)"}\`, body ${JSON.stringify(response.text.slice(0, 80))}`;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return "body is not JSON";
  }
  const error = isPlainObject(body) ? body.error : undefined;
  if (!isPlainObject(error)) return "no `error` object";
  if (typeof error.code !== "string" || error.code === "") return "`error.code` is not a non-empty string";
  if (typeof error.message !== "string" || error.message === "") return "`error.message` is not a non-empty string";
  if ("details" in error && !isPlainObject(error.details)) return "`error.details` is not an object";
  return null;
}

type Problem = { kind: FailureKind; cause: string };

const tooLarge = (response: RawResponse): Problem[] =>
  response.status >= 400 && Buffer.byteLength(response.text) > MAX_ERROR_BYTES
    ? [{ kind: "error too large", cause: `${response.status} of ${Buffer.byteLength(response.text)} bytes` }]
    : [];

/**
 * A request built by hand to a path the API app answers (any spelling of a route): no 5xx, and
 * every error the envelope and under MAX_ERROR_BYTES. A spelling of /mcp that reaches the MCP
 * handler may answer a JSON-RPC error instead.
 */
export function craftedAnswerProblems(
  request: RawRequest,
  response: RawResponse,
  options: { jsonRpcToo: boolean },
): Problem[] {
  const problems: Problem[] = [];
  if (response.status >= 500)
    problems.push({ kind: "5xx", cause: `${response.status} ${errorCode(response.text) ?? "(no code)"}` });
  if (response.status >= 400 && response.status < 500 && request.method !== "HEAD") {
    const problem = envelopeProblem(response);
    const jsonRpc = options.jsonRpcToo && jsonRpcErrorProblem(parsed(response.text)) === null;
    if (problem && !jsonRpc) problems.push({ kind: "not the error envelope", cause: `${response.status}: ${problem}` });
  }
  return [...problems, ...tooLarge(response)];
}

/**
 * What a POST to /mcp may get: no 5xx; 202 with no body (nothing but notifications); otherwise
 * JSON: a JSON-RPC response, or an array of them answering a batch, where an error is
 * `{code, message}` under MAX_ERROR_BYTES and a tool's error result holds the API's envelope.
 * An HTTP error is a JSON-RPC error, or the API's envelope when the body was never a message
 * (`readable` false: not JSON, not an object or array, over the body limit, another type).
 */
export function mcpAnswerProblems(response: RawResponse, options: { readable: boolean }): Problem[] {
  const problems: Problem[] = [];
  const fail = (cause: string) => problems.push({ kind: "not a JSON-RPC answer", cause });
  if (response.status >= 500)
    problems.push({ kind: "5xx", cause: `${response.status} ${jsonRpcCode(response.text) ?? "(no code)"}` });
  problems.push(...tooLarge(response));
  if (response.status === 202) {
    if (response.text !== "") fail(`202 with a body: ${JSON.stringify(response.text.slice(0, 80))}`);
    return problems;
  }
  // /mcp refuses a bad token before reading the message: 401, for OAuth, in the API's envelope.
  if (response.status === 401 && response.headers["www-authenticate"]) {
    const problem = envelopeProblem(response);
    if (problem) fail(`401: ${problem}`);
    return problems;
  }
  if (response.status >= 400) {
    const jsonRpc = jsonRpcErrorProblem(parsed(response.text));
    if (jsonRpc && (options.readable || envelopeProblem(response)))
      fail(`${response.status}: ${jsonRpc}${options.readable ? "" : ", nor the API's envelope"}`);
    return problems;
  }
  if (response.status !== 200) {
    fail(`status ${response.status}`);
    return problems;
  }
  const type = String(response.headers["content-type"] ?? "");
  if (!/^application\/json\b/i.test(type)) {
    fail(`200 with Content-Type \`${type || "(none)"}\``);
    return problems;
  }
  const body = parsed(response.text);
  const answers = Array.isArray(body) ? body : [body];
  if (answers.length === 0) fail("200 with an empty batch answer");
  for (const answer of answers) {
    const problem = jsonRpcResponseProblem(answer);
    if (problem) {
      fail(`200: ${problem}`);
      break;
    }
  }
  return problems;
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const isId = (id: unknown) => id === null || typeof id === "string" || typeof id === "number";

function jsonRpcErrorProblem(body: unknown): string | null {
  if (!isPlainObject(body)) return "not a JSON object";
  if (body.jsonrpc !== "2.0") return '`jsonrpc` is not "2.0"';
  if (!("id" in body) || !isId(body.id)) return "no `id` (string, number or null)";
  const error = body.error;
  if (!isPlainObject(error)) return "no `error` object";
  if (!Number.isInteger(error.code)) return "`error.code` is not an integer";
  if (typeof error.message !== "string" || error.message === "") return "`error.message` is not a non-empty string";
  if (JSON.stringify(body).length > MAX_ERROR_BYTES) return `an error of over ${MAX_ERROR_BYTES} bytes`;
  return null;
}

function jsonRpcResponseProblem(answer: unknown): string | null {
  if (isPlainObject(answer) && "error" in answer) return jsonRpcErrorProblem(answer);
  if (!isPlainObject(answer)) return "not a JSON-RPC response object";
  if (answer.jsonrpc !== "2.0") return '`jsonrpc` is not "2.0"';
  if (!isId(answer.id)) return "no `id` (string, number or null)";
  if (!isPlainObject(answer.result)) return "neither `result` nor `error`";
  // A tool's error: the REST answer, the API's envelope, as its text.
  if (answer.result.isError === true) {
    const content = answer.result.content;
    const text: unknown = Array.isArray(content) && isPlainObject(content[0]) ? content[0].text : undefined;
    if (typeof text !== "string") return "a tool error without text content";
    const envelope = envelopeProblem({ status: 400, headers: { "content-type": "application/json" }, text, ms: 0 });
    if (envelope) return `a tool error's text: ${envelope}`;
    if (text.length > MAX_ERROR_BYTES) return `a tool error of over ${MAX_ERROR_BYTES} bytes`;
  }
  return null;
}

function jsonRpcCode(text: string): number | null {
  const body = parsed(text);
  const code = isPlainObject(body) && isPlainObject(body.error) ? body.error.code : undefined;
  return typeof code === "number" ? code : null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function errorCode(text: string): string | null {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } })?.error?.code;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}

/** Ids, long runs and numbers out of a message, so one cause groups however often it recurs. */
export const normalize = (text: string): string =>
  text
    .replace(/\b(cal|evt|viw|lyr|grt|areq|cred|agt)_[A-Za-z0-9]{20}\b/g, "<$1>")
    .replace(/svc_agent_[A-Za-z0-9]{43}/g, "<token>")
    // The input a message quotes (`Failed to decode param '%ZZ'`) varies; the cause does not.
    .replace(/'[^']*'/g, "'…'")
    .replace(/(.)\1{15,}/g, "$1…")
    .replace(/\s+at .*/s, "")
    .slice(0, 240);

export interface RunStats {
  requests: number;
  statuses: Map<number, number>;
  slowest: { ms: number; line: string } | null;
  /** Answers over the bound whose repeat was within it: machine noise, reported, not failed. */
  slowOnce: string[];
}

export const newStats = (): RunStats => ({ requests: 0, statuses: new Map(), slowest: null, slowOnce: [] });

export function countAnswer(stats: RunStats, request: RawRequest, response: RawResponse): void {
  stats.requests++;
  stats.statuses.set(response.status, (stats.statuses.get(response.status) ?? 0) + 1);
  if (!stats.slowest || response.ms > stats.slowest.ms) stats.slowest = { ms: response.ms, line: requestLine(request) };
}

export const fiveXx = (stats: RunStats): number =>
  [...stats.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);

/** Where the failure happened: the operation, with the method actually sent. */
const operationOf = (f: Failure): string => {
  const [method, template] = f.recipe.operation.split(" ");
  return f.recipe.method === method
    ? `${method} ${template}`
    : `${f.recipe.method} ${template} (method swapped from ${method})`;
};

export interface Group {
  kind: FailureKind;
  cause: string;
  operations: Set<string>;
  examples: Failure[];
  count: number;
}

/** Failures grouped by kind and cause, keeping a few examples each (bodies can be 100 KB). */
export class Findings {
  private readonly groups = new Map<string, Group>();
  total = 0;

  add(f: Failure): void {
    this.total++;
    const key = `${f.kind}|${f.cause}`;
    const group = this.groups.get(key) ?? {
      kind: f.kind,
      cause: f.cause,
      operations: new Set<string>(),
      examples: [],
      count: 0,
    };
    group.count++;
    group.operations.add(operationOf(f));
    if (group.examples.length < 3) group.examples.push(f);
    this.groups.set(key, group);
  }

  list(): Group[] {
    return [...this.groups.values()].sort((a, b) => b.count - a.count);
  }
}

export const requestLine = (r: RawRequest): string =>
  `${r.method} ${r.path.length > 300 ? `${r.path.slice(0, 300)}… (${r.path.length} chars)` : r.path}`;

function describeRequest(f: Failure): string {
  const headers = Object.entries(f.request.headers)
    .filter(([name]) => name !== "Content-Length")
    .map(([name, value]) => {
      if (name === "Authorization")
        return `Authorization: <${f.recipe.caller}${f.recipe.caller === "garbage" ? `: ${value.slice(0, 40)}` : ""}>`;
      return `${name}: ${value.length > 60 ? `${value.slice(0, 60)}… (${value.length} chars)` : value}`;
    });
  const body = f.request.body
    ? ` body (${f.request.body.length} bytes): ${JSON.stringify(f.request.body.toString("utf8").slice(0, 200))}`
    : "";
  return `(${f.recipe.mode}) \`${requestLine(f.request)}\` [${headers.join("; ")}]${body}`;
}

export function findingsMarkdown(options: {
  seed: number;
  runs: number;
  pageRuns: number;
  stats: RunStats;
  findings: Findings;
  finishedAt: string;
}): string {
  const { stats, findings } = options;
  const groups = findings.list();
  const statuses = [...stats.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  const lines = [
    "# Fuzz findings (test/fuzz/openapi.fuzz.test.ts)",
    "",
    `Run ${options.finishedAt}: \`FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs}\` ` +
      `(${options.pageRuns} page/feed requests among them), rerun with`,
    `\`TZ=UTC FUZZ_SEED=${options.seed} FUZZ_RUNS=${options.runs} npx vitest run test/fuzz\`.`,
    "",
    `- Requests: ${stats.requests}; 5xx: ${fiveXx(stats)}; failures: ${findings.total} in ${groups.length} groups`,
    `- Slowest: ${stats.slowest ? `${stats.slowest.ms.toFixed(0)} ms, \`${stats.slowest.line.slice(0, 200)}\`` : "-"}`,
    `- Statuses: ${statuses}`,
    ...(stats.slowOnce.length > 0
      ? [`- Over ${SLOW_MS} ms once but not on repeat (noise, not failed): ${stats.slowOnce.length}`]
      : []),
    "",
  ];
  for (const group of groups) {
    lines.push(
      `## ${group.kind}: ${group.cause} (${group.count}×)`,
      "",
      `Operations: ${[...group.operations].sort().join("; ")}`,
      "",
    );
    for (const f of group.examples) {
      lines.push(
        `- ${describeRequest(f)}`,
        `  → ${f.status ?? "no answer"}${f.ms !== null ? ` in ${f.ms.toFixed(0)} ms` : ""}: ${JSON.stringify(f.response.slice(0, 400))}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
