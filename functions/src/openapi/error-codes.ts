import { z } from "zod";
import type { ErrorCode } from "../domain/errors.js";
import { statusOf } from "../http/errors.js";
import { REQUEST_ID_PATTERN } from "../http/request-id.js";
import { calendarRefusals, type AnyRoute } from "../http/route.js";

/** The error envelope of every failure, with `code` narrowed to the given codes. */
export const errorEnvelope = (codes: readonly ErrorCode[]) =>
  z.strictObject({
    error: z.strictObject({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string().min(1),
      details: z.record(z.string(), z.unknown()).optional(),
      request_id: z.string().regex(REQUEST_ID_PATTERN).meta({
        description: "This answer's `X-Request-Id` header: quote it when you report a problem",
      }),
    }),
  });

/**
 * Which error codes an operation can answer: the ones its definition declares, plus the ones
 * the HTTP layer adds to every route of its kind (body parsing, authentication, idempotency,
 * crashes). Both the OpenAPI document and the response check of the test suite use this list.
 */
export function documentedErrors(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors);
  codes.add("method_not_allowed");
  codes.add("internal");
  codes.add("unavailable");
  // Every request counts against a rate limit (http/rate-limit.ts).
  codes.add("rate_limited");
  // Before any operation (http/edge.ts): a query value over 1,000 characters, an undecodable
  // path, a compressed body.
  codes.add("invalid_request");
  codes.add("unsupported_media_type");
  // A path id that is not an id is 404, like an unknown one.
  if (route.params) codes.add("not_found");
  if (route.method === "post" || route.method === "patch") {
    for (const code of ["invalid_json", "payload_too_large", "unsupported_media_type"] as const) codes.add(code);
  }
  if (route.body) codes.add(route.invalidCode ?? "invalid_request");
  // A token that is sent must be valid, even where none is required.
  if (route.auth !== "none") codes.add("unauthorized");
  if (route.scope) codes.add("insufficient_scope");
  // What the calendar policy refuses for the route's declared action (http/route.ts loads and judges).
  if (route.calendar) for (const code of calendarRefusals(route.calendar)) codes.add(code);
  if (route.method === "post") {
    for (const code of [
      "missing_idempotency_key",
      "invalid_request",
      "idempotency_key_in_use",
      "idempotency_key_reused",
    ] as const) {
      codes.add(code);
    }
  }
  return [...codes].sort(byStatusThenName);
}

/** Codes a request can meet before it reaches any operation (unknown path, unreadable body). */
export const UNROUTED_ERRORS: ErrorCode[] = [
  "invalid_json",
  "invalid_request",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal",
];

/** Groups codes by their HTTP status, in ascending order. */
export function byStatus(codes: ErrorCode[]): Map<number, ErrorCode[]> {
  const grouped = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort(byStatusThenName)) {
    const status = statusOf(code);
    grouped.set(status, [...(grouped.get(status) ?? []), code]);
  }
  return grouped;
}

function byStatusThenName(a: ErrorCode, b: ErrorCode): number {
  return statusOf(a) - statusOf(b) || a.localeCompare(b);
}
