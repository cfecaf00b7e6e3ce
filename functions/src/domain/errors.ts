/**
 * What can go wrong, in the domain's words: every refusal is a DomainError with a stable code
 * (docs/api.md#errors), a message that says what to do next, and optional
 * details. The domain knows no protocol: http/errors.ts maps each code to its HTTP status,
 * the docs page its message points to, and its help line in /openapi.json.
 *
 * Every error is built here, by one of the factories of `errors`, so the messages an agent
 * reads stand in one file.
 */
import type { QuotaName } from "./quota-limits.js";

/** The stable error codes; http/errors.ts gives each its status. */
export const ERROR_CODES = [
  "invalid_json",
  "invalid_request",
  "invalid_event",
  "missing_idempotency_key",
  "last_owner",
  "layer_depth",
  "layer_limit",
  "unauthorized",
  "invalid_onboard_token",
  "insufficient_scope",
  "forbidden",
  "quota_exceeded",
  "not_found",
  "method_not_allowed",
  "slug_taken",
  "key_taken",
  "last_credential",
  "already_granted",
  "already_resolved",
  "idempotency_key_in_use",
  "cursor_expired",
  "payload_too_large",
  "unsupported_media_type",
  "idempotency_key_reused",
  "rate_limited",
  "too_expensive",
  "internal",
  "unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);

export type ErrorDetails = Record<string, unknown>;

/** The most characters of a client's input an error quotes (docs/api.md#errors). */
export const MAX_QUOTED = 100;

/**
 * What the client sent, as an error quotes it: at most `max` characters, then `…` when cut
 * (never half a surrogate pair). Every message or detail that repeats a field name, value, id,
 * slug or query parameter goes through here, so no answer grows with what was sent; the
 * envelope caps what reaches the wire once more (http/errors.ts).
 */
export function quote(value: unknown, max = MAX_QUOTED): string {
  const text = String(value);
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, cut)}…`;
}

/** The codes of a failed validation: `invalid_event` for event payloads, else `invalid_request`. */
export type InvalidCode = "invalid_request" | "invalid_event";

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

const QUOTA_REACHED: Record<QuotaName, string> = {
  calendars_per_agent: "this agent already has %d calendars, the most it may create",
  events_per_calendar: "this calendar already holds %d events, the most it may hold; delete events you no longer need",
  credentials_per_agent:
    "this agent already has %d live credentials, the most it may hold; revoke one it no longer uses (DELETE /v1/agent-credentials/{id})",
  slugs_per_calendar:
    "this calendar has held %d slugs, the most it may hold; take back one of its earlier slugs or keep the current one",
  // Never refused: past it the oldest retired slug is released (domain/slugs.ts).
  retired_slugs_per_agent: "this agent's calendars already keep %d retired slugs reserved, the most they may",
  views_per_calendar:
    "this calendar already has %d live share views, the most it may hold; revoke one it no longer needs",
  exceptions_per_event:
    "this series already has %d changed or cancelled occurrences, the most it may hold; restore some " +
    "(DELETE .../occurrences/{date}) or split the series",
  webhooks_per_agent:
    "this agent already has %d webhooks, the most it may hold; delete one it no longer needs (DELETE /v1/webhooks/{id}) " +
    "or subscribe an existing one to more calendars",
  events_with_alarms_per_calendar:
    "this calendar already has %d events with an alarm ahead, the most it may have; clear the alarms of events " +
    'that no longer need them (PATCH with "alarms": null) or delete them',
};

/** The catalog: one factory per way a request can fail in the domain. */
export const errors = {
  // --- identity and access -------------------------------------------------------------
  /** The bearer token's record is gone, revoked or expired. */
  invalidToken: () =>
    new DomainError(
      "unauthorized",
      "the bearer token is unknown, revoked or expired; mint a new identity with POST /v1/mint or use another credential",
    ),
  insufficientScope: (scope: string) =>
    new DomainError("insufficient_scope", `this token lacks the \`${scope}\` scope; use a credential that carries it`, {
      required_scope: scope,
    }),
  forbidden: (needed: string) =>
    new DomainError(
      "forbidden",
      `your role on this calendar does not allow this; it needs ${needed} (ask an owner for a grant, or POST an access request)`,
    ),
  /** A credential restricted to named calendars asked for something beyond them. */
  restrictedCredential: (action: string) =>
    new DomainError(
      "forbidden",
      `this credential is restricted to the calendars it names and may not ${action}; use a credential without \`calendars\``,
    ),
  notFound: (what = "resource") =>
    new DomainError("not_found", `no such ${what}, or you may not see it; check the id and your token`),
  /** An id, hash or slug that no record can have (domain/paths.ts): such a record cannot exist. */
  invalidId: (kind: string) =>
    new DomainError(
      "not_found",
      `no such ${kind}: ids are opaque strings as the API returned them (a prefix such as \`cal_\`, then letters and digits); check the id`,
    ),
  invalidOnboardToken: () =>
    new DomainError(
      "invalid_onboard_token",
      "the onboard_token is unknown, used or older than 30 minutes; ask your human for a new one, or mint without it",
    ),
  lastCredential: () =>
    new DomainError("last_credential", "this is the agent's only active credential; create another before revoking it"),

  // --- validation ------------------------------------------------------------------------
  invalid: (code: InvalidCode, message: string, details?: ErrorDetails) => new DomainError(code, message, details),
  /** A rule on one field that the schema cannot express (cross-field checks in commands). */
  invalidField: (code: InvalidCode, field: string, message: string) =>
    new DomainError(code, `\`${quote(field)}\` ${message}`, {
      field: quote(field),
      issues: [{ field: quote(field), message }],
    }),
  /**
   * A webhook `url` the address policy refuses (domain/webhooks/url.ts), saying why; the policy
   * is spelled out on the webhooks page, so the message points there.
   */
  refusedWebhookUrl: (why: string) =>
    new DomainError("invalid_request", `\`url\` ${why} (see /docs/webhooks.md#the-url)`, {
      field: "url",
      issues: [{ field: "url", message: why }],
    }),
  /** A `cursor` this list did not give out (domain/paging.ts). */
  badCursor: () =>
    new DomainError(
      "invalid_request",
      "query: `cursor` is not one this endpoint gave out; send the `next_cursor` of the previous page, or omit it to start over",
      { field: "cursor", issues: [{ field: "cursor", message: "is not a valid cursor" }] },
    ),
  /** A change-feed `cursor` this calendar's feed did not give out (domain/queries/changes.ts). */
  badChangeCursor: () =>
    new DomainError(
      "invalid_request",
      "query: `cursor` is not one this calendar's change feed gave out; " +
        "send the `cursor` of the previous answer, or omit it to start from now",
      { field: "cursor", issues: [{ field: "cursor", message: "is not a valid cursor" }] },
    ),
  /**
   * A change-feed cursor older than the 7-day retention, behind a change already purged, or
   * given out before the deployment changed its shard count.
   */
  cursorExpired: (why = "this cursor is older than the change feed's 7-day retention and changes after it are gone") =>
    new DomainError(
      "cursor_expired",
      `${why}; start again without \`cursor\`, and re-read the calendar's events (GET .../events) to catch up`,
    ),

  /** Free/busy over more occurrences than one request may expand (domain/queries/freebusy.ts). */
  tooManyOccurrences: (limit: number) =>
    new DomainError(
      "invalid_request",
      `the named calendars and their layers hold more than ${limit.toLocaleString("en-US")} occurrences ` +
        "between `from` and `to`; ask for a shorter range or fewer calendars",
      { field: "to", limit },
    ),

  /** A read that would load more records than one request may (domain/queries/occurring.ts). */
  tooExpensive: (budget: number) =>
    new DomainError(
      "too_expensive",
      `answering this would read more than ${budget.toLocaleString("en-US")} events and exceptions; ` +
        "ask for a shorter range (`from`/`to`), or for fewer calendars or layers",
      { budget: { records: budget } },
    ),
  /** Every place for expensive anonymous reads on this instance is taken (http/expensive-reads.ts). */
  readsBusy: (retryAfterSeconds: number) =>
    new DomainError(
      "rate_limited",
      "the server is busy with other anonymous reads of large calendars; retry after `Retry-After` seconds, " +
        "or send a bearer token (agents' reads are not queued with anonymous ones)",
      { retry_after: retryAfterSeconds },
    ),

  // --- calendars, sharing, layers ---------------------------------------------------------
  slugTaken: (slug: string, available: string[]) =>
    new DomainError("slug_taken", `the slug \`${quote(slug)}\` is taken; pick another, e.g. one of details.available`, {
      slug: quote(slug),
      available,
    }),
  lastOwner: () =>
    new DomainError(
      "last_owner",
      "this is the calendar's last owner; make another agent owner first, then change or revoke this grant",
    ),
  alreadyGranted: (role: string) =>
    new DomainError("already_granted", `you already hold the ${role} role on this calendar; nothing to request`, {
      role,
    }),
  alreadyResolved: (status: string) =>
    new DomainError("already_resolved", `this request was already ${status}; the requester can send a new one`, {
      status,
    }),
  layerDepth: (why: string) =>
    new DomainError(
      "layer_depth",
      `${why}; layers do not nest: attach calendars that have no layers, to a calendar that is not itself a layer`,
    ),
  layerLimit: (limit: number) =>
    new DomainError(
      "layer_limit",
      `this calendar already has ${limit} layers, the most it can have; detach one first`,
      {
        limit,
      },
    ),
  keyTaken: (key: string, layerId: string) =>
    new DomainError(
      "key_taken",
      `the key \`${quote(key)}\` already names another layer of this calendar; pick another key`,
      {
        key: quote(key),
        layer_id: layerId,
      },
    ),
  quotaExceeded: (quota: QuotaName, limit: number) =>
    new DomainError("quota_exceeded", QUOTA_REACHED[quota].replace("%d", limit.toLocaleString("en-US")), {
      quota,
      limit,
    }),
};
