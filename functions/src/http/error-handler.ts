import type { ErrorRequestHandler } from "express";
import type { Deps } from "../domain/deps.js";
import { ContentionError, DocumentExistsError, StorePathError } from "../storage/port.js";
import { DomainError, errors } from "../domain/errors.js";
import { ApiError, httpErrors, statusOf, withRequestId } from "./errors.js";
import { logUnexpected } from "./log.js";
import { requestIdOf } from "./request-id.js";

export interface ErrorResponse {
  status: number;
  body: object;
  headers: Record<string, string>;
}

/** Maps anything thrown to the envelope; unexpected errors are logged and answered as a bare 500. */
export function toErrorResponse(err: unknown, deps: Pick<Deps, "log">, requestId?: string): ErrorResponse {
  const apiError = asApiError(err);
  if (!apiError) {
    logUnexpected(deps.log, "internal error", err, requestId);
    const internal = httpErrors.internal();
    return { status: internal.status, body: internal.toBody(), headers: {} };
  }
  return { status: apiError.status, body: apiError.toBody(), headers: apiError.headers };
}

/** What a thrown value means to a caller, or null for a crash; pages and feeds use it too. */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof DomainError) return ApiError.from(err);
  if (err instanceof ContentionError) return httpErrors.unavailable();
  // The store refused a path that is not collection/id pairs: no such record can exist.
  if (err instanceof StorePathError) return ApiError.from(errors.notFound());
  // The router could not percent-decode a path parameter (`%ZZ`).
  if (err instanceof URIError) return httpErrors.undecodablePath();
  if (err instanceof DocumentExistsError) return httpErrors.lostCreateRace();
  // body-parser marks its errors with a `type`.
  const type = (err as { type?: string } | null)?.type;
  if (type === "entity.parse.failed") return httpErrors.invalidJson();
  if (type === "entity.too.large") return httpErrors.payloadTooLarge((err as { limit?: number }).limit);
  if (type === "encoding.unsupported" || type === "charset.unsupported") return httpErrors.unsupportedMediaType();
  return null;
}

/** Store failures that a retry in a moment resolves: pages and feeds answer them as 503 too. */
export function isTransientStoreError(err: unknown): boolean {
  return (
    err instanceof ContentionError ||
    err instanceof DocumentExistsError ||
    (err instanceof DomainError && statusOf(err.code) === 503)
  );
}

export function errorMiddleware(deps: Pick<Deps, "log">): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const requestId = requestIdOf(res);
    const { status, body, headers } = toErrorResponse(err, deps, requestId);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(withRequestId(body, requestId));
  };
}
