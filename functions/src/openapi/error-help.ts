import type { ErrorCode } from "../http/errors.js";

/** One line per error code for the OpenAPI response descriptions; /docs/errors.md says more. */
export const ERROR_HELP: Record<ErrorCode, string> = {
  invalid_json: "the body is not valid JSON",
  invalid_request: "a parameter, header or body field fails validation; `details.field` names it",
  invalid_event: "the event payload fails validation; `details.field` names the field",
  missing_idempotency_key: "the POST lacks an `Idempotency-Key` header",
  last_owner: "the change would leave the calendar without an owner",
  layer_depth: "attaching this calendar would nest layers",
  layer_limit: "the calendar already has 20 layers",
  unauthorized: "the bearer token is missing, malformed, unknown, revoked or expired",
  invalid_onboard_token: "the `onboard_token` is unknown, used or expired",
  insufficient_scope: "the token lacks the scope in `details.required_scope`",
  forbidden: "your role on this calendar is too low for this operation",
  quota_exceeded:
    "the agent or calendar holds as many of these records as it may; `details.quota` names the quota, `details.limit` its size",
  not_found: "no such resource, or you may not see it",
  method_not_allowed: "wrong method for this path; the `Allow` header lists the right ones",
  slug_taken: "the slug is in use; `details.available` suggests free ones",
  key_taken: "the layer key is in use on this calendar for another calendar",
  last_credential: "the agent's last active credential cannot be revoked",
  already_granted: "you already hold this role or a higher one",
  already_resolved: "the access request is no longer pending",
  idempotency_key_in_use: "a request with this `Idempotency-Key` is still running; retry after `Retry-After`",
  payload_too_large: "the body is over 64 KiB",
  unsupported_media_type: "the body is not sent as `application/json`",
  idempotency_key_reused: "this `Idempotency-Key` was used with another method, path or body",
  rate_limited: "too many requests; retry after `Retry-After` seconds",
  internal: "an unexpected failure on the server; retry",
  unavailable: "the store is busy with conflicting writes; retry after `Retry-After`",
};
