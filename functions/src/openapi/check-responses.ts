import type { RequestHandler, Response } from "express";
import type { z } from "zod";
import { isErrorCode } from "../domain/errors.js";
import { statusOf, withRequestId } from "../http/errors.js";
import { requestIdOf } from "../http/request-id.js";
import type { AnyRoute } from "../http/route.js";
import { UNROUTED_ERRORS, documentedErrors, errorEnvelope } from "./error-codes.js";

/**
 * Test-time guard that the documentation tells the truth: every JSON response is checked
 * against what the OpenAPI document promises for its operation (route.ts records the
 * operation in `res.locals.route`). A 200 must match `route.response`, with no field the
 * schema leaves out; an error must be the envelope with a code documented for that operation
 * under its own status. A violation is printed to stderr and replaces the response with a 500
 * that names it, so the test that caused it fails.
 */
export function checkResponses(report: (problem: string) => void = (p) => console.error(p)): RequestHandler {
  return (req, res, next) => {
    // res.json and prepared (cached) JSON both end in res.send with a JSON string.
    const send = res.send.bind(res);
    res.send = (body?: unknown): Response => {
      const isJson = /json/.test(String(res.get("Content-Type")));
      if (!isJson || (typeof body !== "string" && !Buffer.isBuffer(body))) return send(body);
      const route = res.locals.route as AnyRoute | undefined;
      const problem = responseProblem(route, res.statusCode, JSON.parse(body.toString()));
      if (!problem) return send(body);
      const operation = route ? `${route.method.toUpperCase()} ${route.path}` : "no route";
      const message = `response contract violation on ${req.method} ${req.originalUrl} (${operation}): ${problem}`;
      report(message);
      res.status(500);
      return send(JSON.stringify(withRequestId({ error: { code: "internal", message } }, requestIdOf(res))));
    };
    next();
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
