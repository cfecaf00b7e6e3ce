/**
 * What the fuzz test asserts of every answer, and how failures are grouped and written down
 * so that each distinct cause appears once, with examples that can be replayed by hand.
 */
import type { Recipe } from "./recipe.js";
import type { RawRequest, RawResponse } from "./send.js";

/** A correctness bound on pathological work (issue 9), not a benchmark. */
export const SLOW_MS = 2000;

export type FailureKind = "5xx" | "not the error envelope" | "slow" | "no answer";

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

/** DECISIONS section 1: never a 5xx; on `/v1` and `/openapi.json` every 4xx is the envelope. */
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

function envelopeProblem(response: RawResponse): string | null {
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
