/**
 * The one error model of the API. Every failure is an ApiError with an HTTP status and a
 * stable code; the error middleware renders it once as `{error: {code, message, details?}}`.
 * Messages say what to do next.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_event: 400,
  missing_idempotency_key: 400,
  last_owner: 400,
  layer_depth: 400,
  layer_limit: 400,
  unauthorized: 401,
  invalid_onboard_token: 401,
  insufficient_scope: 403,
  forbidden: 403,
  quota_exceeded: 403,
  not_found: 404,
  method_not_allowed: 405,
  slug_taken: 409,
  key_taken: 409,
  last_credential: 409,
  already_granted: 409,
  already_resolved: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The page of hosting/docs that explains each code; every message ends by pointing to it. */
const TOPIC_DOCS: Partial<Record<ErrorCode, string>> = {
  invalid_event: "/docs/events.md",
  unauthorized: "/docs/start.md",
  invalid_onboard_token: "/docs/start.md",
  insufficient_scope: "/docs/start.md",
  last_credential: "/docs/start.md",
  forbidden: "/docs/sharing.md",
  last_owner: "/docs/sharing.md",
  already_granted: "/docs/sharing.md",
  already_resolved: "/docs/sharing.md",
  layer_depth: "/docs/views-and-layers.md",
  layer_limit: "/docs/views-and-layers.md",
  key_taken: "/docs/views-and-layers.md",
};
export const errorDocs = (code: ErrorCode): string => TOPIC_DOCS[code] ?? "/docs/errors.md";

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message.includes("/docs/") ? message : `${message} (see ${errorDocs(code)})`);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const errors = {
  unauthorized: (why = "send `Authorization: Bearer <token>`; mint one with POST /v1/mint") =>
    new ApiError("unauthorized", why, undefined, { "WWW-Authenticate": 'Bearer realm="almanac"' }),
  invalidToken: () =>
    new ApiError(
      "unauthorized",
      "the bearer token is unknown, revoked or expired; mint a new identity with POST /v1/mint or use another credential",
      undefined,
      { "WWW-Authenticate": 'Bearer realm="almanac", error="invalid_token"' },
    ),
  insufficientScope: (scope: string) =>
    new ApiError(
      "insufficient_scope",
      `this token lacks the \`${scope}\` scope; use a credential that carries it`,
      { required_scope: scope },
      {
        "WWW-Authenticate": `Bearer realm="almanac", error="insufficient_scope", scope="${scope}"`,
      },
    ),
  forbidden: (needed: string) =>
    new ApiError(
      "forbidden",
      `your role on this calendar does not allow this; it needs ${needed} (ask an owner for a grant, or POST an access request)`,
    ),
  notFound: (what = "resource") =>
    new ApiError("not_found", `no such ${what}, or you may not see it; check the id and your token`),
  routeNotFound: (method: string, path: string) =>
    new ApiError("not_found", `no route ${method} ${path}; the API's operations are listed at /openapi.json`),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(
      "method_not_allowed",
      `${method} is not allowed here; use ${allowed.join(", ")}`,
      { allowed },
      { Allow: allowed.join(", ") },
    ),
  invalidJson: () => new ApiError("invalid_json", "the request body is not valid JSON; send a JSON object"),
  invalid: (code: "invalid_request" | "invalid_event", message: string, details?: Record<string, unknown>) =>
    new ApiError(code, message, details),
  /** A rule on one field that the schema cannot express (cross-field checks in commands). */
  invalidField: (code: "invalid_request" | "invalid_event", field: string, message: string) =>
    new ApiError(code, `\`${field}\` ${message}`, { field, issues: [{ field, message }] }),
  missingIdempotencyKey: () =>
    new ApiError("missing_idempotency_key", "send an Idempotency-Key header: any unique string up to 200 chars"),
  idempotencyKeyReused: () =>
    new ApiError(
      "idempotency_key_reused",
      "this Idempotency-Key was used for another method, path or body; send a new key for a new request",
    ),
  idempotencyKeyInUse: () =>
    new ApiError(
      "idempotency_key_in_use",
      "a request with this Idempotency-Key is still being processed; retry in a moment",
      undefined,
      { "Retry-After": "1" },
    ),
  payloadTooLarge: () => new ApiError("payload_too_large", "the request body is over 64 KiB; send a smaller body"),
  unsupportedMediaType: () =>
    new ApiError("unsupported_media_type", "send the body as JSON with `Content-Type: application/json`"),
  internal: () => new ApiError("internal", "something went wrong on our side; retry, and if it persists, report it"),
  unavailable: () =>
    new ApiError("unavailable", "the store is busy with conflicting writes; retry in a moment", undefined, {
      "Retry-After": "1",
    }),
  /** Over a rate limit (http/rate-limit.ts), with the next request allowed in `retry_after` seconds. */
  rateLimited: (message: string, details: { limit: number; window_seconds: number; retry_after: number }) =>
    new ApiError("rate_limited", message, details, { "Retry-After": String(details.retry_after) }),
};
