/**
 * How errors travel over HTTP. The domain throws DomainErrors (domain/errors.ts); this file
 * holds the one table that gives every code its status, the docs page its message points to,
 * its help line in /openapi.json and the headers it carries, and the errors only the protocol
 * can meet (routing, bodies, idempotency, rate limits). The error middleware
 * (http/error-handler.ts) renders either once as `{error: {code, message, details?, request_id}}`.
 */
import { DomainError, MAX_QUOTED, quote, type ErrorCode, type ErrorDetails } from "../domain/errors.js";

type Headers = Record<string, string>;

/** A section of hosting/docs: the page and the anchor of the heading that explains a code. */
type DocSection = `/docs/${"start" | "events" | "sharing" | "views-and-layers"}.md#${string}`;

const START_ERRORS = "/docs/start.md#errors-explained-on-this-page";
const SHARING_ERRORS = "/docs/sharing.md#errors-explained-on-this-page";
const LAYER_ERRORS = "/docs/views-and-layers.md#limits-and-their-errors";

interface CodeOnTheWire {
  status: number;
  /** One line for the OpenAPI response descriptions; /docs/errors.md says more. */
  help: string;
  /** The section of hosting/docs that explains the code, when not its own in /docs/errors.md. */
  docs?: DocSection;
  /** Headers an answer with this code carries, from its details (none when they lack what a header needs). */
  headers?: (details: ErrorDetails | undefined) => Headers;
}

const retryInAMoment = () => ({ "Retry-After": "1" });

/** Every code, once. */
const WIRE: Record<ErrorCode, CodeOnTheWire> = {
  invalid_json: { status: 400, help: "the body is not valid JSON" },
  invalid_request: {
    status: 400,
    help: "a parameter, header or body field fails validation; `details.field` names it",
  },
  invalid_event: {
    status: 400,
    help: "the event payload fails validation; `details.field` names the field",
    docs: "/docs/events.md#when-a-write-is-refused-invalid_event",
  },
  missing_idempotency_key: { status: 400, help: "the POST lacks an `Idempotency-Key` header" },
  last_owner: {
    status: 400,
    help: "the change would leave the calendar without an owner",
    docs: SHARING_ERRORS,
  },
  layer_depth: { status: 400, help: "attaching this calendar would nest layers", docs: LAYER_ERRORS },
  layer_limit: { status: 400, help: "the calendar already has 20 layers", docs: LAYER_ERRORS },
  unauthorized: {
    status: 401,
    help: "the bearer token is missing, malformed, unknown, revoked or expired",
    docs: START_ERRORS,
    // A token was sent and is no good (RFC 6750); `httpErrors.unauthorized` names no error.
    headers: () => ({ "WWW-Authenticate": 'Bearer realm="almanac", error="invalid_token"' }),
  },
  invalid_onboard_token: {
    status: 401,
    help: "the `onboard_token` is unknown, used or expired",
    docs: START_ERRORS,
  },
  insufficient_scope: {
    status: 403,
    help: "the token lacks the scope in `details.required_scope`",
    docs: START_ERRORS,
    headers: (details): Headers =>
      typeof details?.required_scope === "string"
        ? {
            "WWW-Authenticate": `Bearer realm="almanac", error="insufficient_scope", scope="${details.required_scope}"`,
          }
        : {},
  },
  forbidden: {
    status: 403,
    help: "your role on this calendar is too low for this operation",
    docs: SHARING_ERRORS,
  },
  quota_exceeded: {
    status: 403,
    help: "the agent or calendar holds as many of these records as it may; `details.quota` names the quota, `details.limit` its size",
  },
  not_found: { status: 404, help: "no such resource, or you may not see it" },
  method_not_allowed: {
    status: 405,
    help: "wrong method for this path; the `Allow` header lists the right ones",
    headers: (details): Headers => (Array.isArray(details?.allowed) ? { Allow: details.allowed.join(", ") } : {}),
  },
  slug_taken: { status: 409, help: "the slug is in use; `details.available` suggests free ones" },
  key_taken: {
    status: 409,
    help: "the layer key is in use on this calendar for another calendar",
    docs: LAYER_ERRORS,
  },
  last_credential: {
    status: 409,
    help: "the agent's last active credential cannot be revoked",
    docs: START_ERRORS,
  },
  already_granted: { status: 409, help: "you already hold this role or a higher one", docs: SHARING_ERRORS },
  already_resolved: { status: 409, help: "the access request is no longer pending", docs: SHARING_ERRORS },
  idempotency_key_in_use: {
    status: 409,
    help: "a request with this `Idempotency-Key` is still running; retry after `Retry-After`",
    headers: retryInAMoment,
  },
  cursor_expired: {
    status: 410,
    help: "the change-feed cursor is older than the 7-day retention; start again without `cursor`",
    docs: "/docs/events.md#following-changes",
  },
  payload_too_large: { status: 413, help: "the body is over 64 KiB" },
  unsupported_media_type: { status: 415, help: "the body is not sent as `application/json`" },
  idempotency_key_reused: {
    status: 422,
    help: "this `Idempotency-Key` was used with another method, path or body",
  },
  rate_limited: {
    status: 429,
    help: "too many requests; retry after `Retry-After` seconds",
    headers: (details): Headers =>
      typeof details?.retry_after === "number" ? { "Retry-After": String(details.retry_after) } : {},
  },
  too_expensive: {
    status: 422,
    help: "the answer would read more than one request may; narrow the range or the calendars (`details.budget`)",
  },
  internal: { status: 500, help: "an unexpected failure on the server; retry" },
  unavailable: {
    status: 503,
    help: "the store is busy with conflicting writes; retry after `Retry-After`",
    headers: retryInAMoment,
  },
};

export const statusOf = (code: ErrorCode): number => WIRE[code].status;
export const errorHelp = (code: ErrorCode): string => WIRE[code].help;
/** The section of hosting/docs that explains each code; every message ends by pointing to it. */
export const errorDocs = (code: ErrorCode): string => WIRE[code].docs ?? `/docs/errors.md#${code}`;

/**
 * The backstop behind `quote` (domain/errors.ts): whatever an error was built with, its envelope
 * stays a few KB. A message is at most MAX_MESSAGE characters; in `details`, a string is at most
 * MAX_DETAIL_TEXT, a list MAX_DETAIL_ITEMS long, nesting MAX_DETAIL_DEPTH deep, and details
 * whose JSON still exceeds MAX_DETAILS_JSON keep their short top-level values only.
 */
export const ENVELOPE_LIMITS = {
  MAX_MESSAGE: 1_000,
  MAX_DETAIL_TEXT: 4 * MAX_QUOTED,
  MAX_DETAIL_ITEMS: 20,
  MAX_DETAIL_DEPTH: 4,
  MAX_DETAILS_JSON: 2_000,
} as const;

function boundedValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return quote(value, ENVELOPE_LIMITS.MAX_DETAIL_TEXT);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= ENVELOPE_LIMITS.MAX_DETAIL_DEPTH) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value))
    return value.slice(0, ENVELOPE_LIMITS.MAX_DETAIL_ITEMS).map((item) => boundedValue(item, depth + 1));
  const entries = Object.entries(value).slice(0, ENVELOPE_LIMITS.MAX_DETAIL_ITEMS);
  return Object.fromEntries(entries.map(([key, item]) => [quote(key), boundedValue(item, depth + 1)]));
}

/** `details` within the envelope's limits (ENVELOPE_LIMITS). */
export function boundedDetails(details: ErrorDetails | undefined): ErrorDetails | undefined {
  if (details === undefined) return undefined;
  const bounded = boundedValue(details, 0) as ErrorDetails;
  if (JSON.stringify(bounded).length <= ENVELOPE_LIMITS.MAX_DETAILS_JSON) return bounded;
  return Object.fromEntries(Object.entries(bounded).filter(([, value]) => typeof value !== "object" || value === null));
}

/** A DomainError on its way out: its status, its headers, and a message that names its docs page. */
export class ApiError extends DomainError {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails, headers?: Record<string, string>) {
    const short = quote(message, ENVELOPE_LIMITS.MAX_MESSAGE);
    super(code, short.includes("/docs/") ? short : `${short} (see ${errorDocs(code)})`, boundedDetails(details));
    this.name = "ApiError";
    this.status = statusOf(code);
    this.headers = headers ?? WIRE[code].headers?.(this.details) ?? {};
  }

  static from(err: DomainError): ApiError {
    return err instanceof ApiError ? err : new ApiError(err.code, err.message, err.details);
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: ErrorDetails } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/**
 * An error body as it leaves: the envelope with the answer's `X-Request-Id` as `error.request_id`
 * (http/request-id.ts). Added on the way out, never stored, so a replayed error names the
 * request that received it.
 */
export function withRequestId<T>(body: T, requestId: string | undefined): T {
  const error = (body as { error?: unknown } | null)?.error;
  if (requestId === undefined || typeof error !== "object" || error === null) return body;
  return { ...(body as object), error: { ...error, request_id: requestId } } as T;
}

/** Failures only the protocol meets; the domain's are in domain/errors.ts. */
export const httpErrors = {
  /** No usable `Authorization` header: a challenge without an error (RFC 6750, section 3.1). */
  unauthorized: (why = "send `Authorization: Bearer <token>`; mint one with POST /v1/mint") =>
    new ApiError("unauthorized", why, undefined, { "WWW-Authenticate": 'Bearer realm="almanac"' }),
  routeNotFound: (method: string, path: string) =>
    new ApiError(
      "not_found",
      `no route ${quote(method)} ${quote(path)}; the API's operations are listed at /openapi.json`,
    ),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError("method_not_allowed", `${quote(method)} is not allowed here; use ${allowed.join(", ")}`, { allowed }),
  invalidJson: () => new ApiError("invalid_json", "the request body is not valid JSON; send a JSON object"),
  /**
   * No key, or an empty one. curl leaves out a header whose value is empty, so a key from a
   * command the shell lacks (`$(uuidgen)`) arrives as no header at all: the message says so.
   */
  missingIdempotencyKey: (arrived: "absent" | "empty") =>
    new ApiError(
      "missing_idempotency_key",
      arrived === "empty"
        ? "the Idempotency-Key header arrived empty; send any unique string of 1 to 200 characters, " +
            "e.g. `Idempotency-Key: create-standup-1`"
        : "send an Idempotency-Key header: any unique string of 1 to 200 characters. None arrived: if your command " +
            "set one, its value was empty and curl left the header out (as when `$(uuidgen)` finds no uuidgen)",
      { field: "Idempotency-Key" },
    ),
  idempotencyKeyReused: () =>
    new ApiError(
      "idempotency_key_reused",
      "this Idempotency-Key was used for another method, path or body; send a new key for a new request",
    ),
  idempotencyKeyInUse: () =>
    new ApiError(
      "idempotency_key_in_use",
      "a request with this Idempotency-Key is still being processed; retry in a moment",
    ),
  payloadTooLarge: (maxBytes = 64 * 1024) =>
    new ApiError("payload_too_large", `the request body is over ${sizeText(maxBytes)}; send a smaller body`),
  unsupportedMediaType: (alsoType: string | null = null) =>
    new ApiError(
      "unsupported_media_type",
      alsoType === null
        ? "send the body as JSON with `Content-Type: application/json`"
        : `send the body as \`Content-Type: ${alsoType}\`, or as JSON with \`Content-Type: application/json\``,
    ),
  internal: () => new ApiError("internal", "something went wrong on our side; retry, and if it persists, report it"),
  unavailable: () => new ApiError("unavailable", "the store is busy with conflicting writes; retry in a moment"),
  /**
   * Two requests read a document as absent and both created it; the store refused the second
   * commit. Nothing of it was written, and a retry reads what the winner wrote and answers
   * what fits (`slug_taken`, an idempotent replay), so it is a 503 to retry, never a 500. The
   * path is not shown: it may hold a token's hash.
   */
  lostCreateRace: () =>
    new ApiError(
      "unavailable",
      "another request created the same record at the same moment; retry in a moment and you get the answer that fits what it wrote",
    ),
  /** A path parameter that is not an id (or an occurrence's date): it names nothing that could exist, and is not echoed. */
  notAnId: (field: string) =>
    new ApiError(
      "not_found",
      field === "date"
        ? "nothing at this path: `date` must be an occurrence's original date, YYYY-MM-DD, as GET .../occurrences gives it"
        : `nothing at this path: \`${quote(field)}\` is not an id the API issued ` +
            "(a prefix such as `cal_`, then letters and digits); check the id",
      { field: quote(field) },
    ),
  /** A request `Content-Encoding` other than `identity` (http/edge.ts): no compressed body is inflated. */
  compressedBody: () =>
    new ApiError(
      "unsupported_media_type",
      "compressed request bodies are not accepted: send the JSON body uncompressed, without a Content-Encoding header (or with `identity`)",
    ),
  /** The router could not percent-decode a path parameter (`%ZZ`). */
  undecodablePath: () =>
    new ApiError(
      "invalid_request",
      "the path is not valid percent-encoding (a `%` must start a valid UTF-8 escape such as `%2F`); fix the address",
    ),
  /** Over a rate limit (http/rate-limit.ts), with the next request allowed in `retry_after` seconds. */
  rateLimited: (message: string, details: { limit: number; window_seconds: number; retry_after: number }) =>
    new ApiError("rate_limited", message, details),
};

/** A byte limit as people read it: "64 KiB", "2 MiB". */
const sizeText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
