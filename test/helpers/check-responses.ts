import type { z } from "zod";
import { isErrorCode } from "../../functions/src/domain/errors.js";
import { statusOf } from "../../functions/src/http/errors.js";
import type { OutcomeCheck } from "../../functions/src/http/express-routes.js";
import { PreparedJson } from "../../functions/src/http/response-cache.js";
import type { AnyRoute } from "../../functions/src/http/route.js";
import { UNROUTED_ERRORS, documentedErrors, errorEnvelope } from "../../functions/src/openapi/error-codes.js";

/**
 * The test suite's guard that the documentation tells the truth: every operation's outcome,
 * from REST and MCP alike, is checked against what the OpenAPI document promises for it. A 200
 * must match `route.response`, with no field the schema leaves out; an error must be the
 * envelope with a code documented for that operation under its own status. A violation is
 * printed to stderr and replaces the outcome with a 500 that names it, so the test that caused
 * it fails.
 */
export function checkResponses(report: (problem: string) => void = (p) => console.error(p)): OutcomeCheck {
  return (route, outcome, requestId) => {
    const body: unknown =
      outcome.body instanceof PreparedJson ? JSON.parse(outcome.body.body.toString("utf8")) : outcome.body;
    const problem = responseProblem(route, outcome.status, body);
    if (!problem) return outcome;
    const message = `response contract violation on ${route.method.toUpperCase()} ${route.path}: ${problem}`;
    report(message);
    const error = { code: "internal", message, ...(requestId ? { request_id: requestId } : {}) };
    return { status: 500, body: { error }, headers: {} };
  };
}

/** What is wrong with this response for this operation, or null when it is as documented. */
export function responseProblem(route: AnyRoute | undefined, status: number, body: unknown): string | null {
  if (status === 200) {
    if (!route) return "a 200 answered outside any documented operation";
    return schemaProblem(route.response, body);
  }
  const allowed = route ? documentedErrors(route) : UNROUTED_ERRORS;
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (isErrorCode(code) && !allowed.includes(code)) {
    return `status ${status} with code \`${code}\`, which is not documented for this operation (add it to the route's \`errors\`)`;
  }
  if (isErrorCode(code) && statusOf(code) !== status) {
    return `code \`${code}\` answered with status ${status}, documented as ${statusOf(code)}`;
  }
  return schemaProblem(errorEnvelope(allowed), body);
}

function schemaProblem(schema: z.ZodType, body: unknown): string | null {
  const result = schema.safeParse(body);
  if (!result.success) {
    return result.error.issues
      .map((issue) => `\`${issue.path.map(String).join(".") || "(body)"}\` ${issue.message}`)
      .join("; ");
  }
  const extra = undocumentedFields(body, result.data, "");
  return extra.length > 0
    ? `undocumented field${extra.length > 1 ? "s" : ""} ${extra.map((f) => `\`${f}\``).join(", ")}`
    : null;
}

/** Fields present in the body that the schema's parse dropped (zod objects strip unknown keys). */
function undocumentedFields(input: unknown, output: unknown, path: string): string[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((item, i) => undocumentedFields(item, output[i], `${path}[${i}]`));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  return Object.entries(input).flatMap(([key, value]) => {
    const field = path ? `${path}.${key}` : key;
    if (value === undefined) return []; // JSON drops it
    return key in output ? undocumentedFields(value, output[key], field) : [field];
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
