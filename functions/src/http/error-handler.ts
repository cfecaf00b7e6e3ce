import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Deps } from "../domain/deps.js";
import { ContentionError, DocumentExistsError, StorePathError } from "../storage/port.js";
import { ApiError, errors } from "./errors.js";

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Maps anything thrown to the envelope; unexpected errors are logged and answered as a bare 500. */
export function toErrorResponse(err: unknown, deps: Pick<Deps, "log">): ErrorResponse {
  const apiError = asApiError(err);
  if (!apiError) {
    deps.log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, {
      severity: "ERROR",
    });
    const internal = errors.internal();
    return { status: internal.status, body: internal.toBody(), headers: {} };
  }
  return { status: apiError.status, body: apiError.toBody(), headers: apiError.headers };
}

/** What a thrown value means to a caller, or null for a crash; pages and feeds use it too. */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof ContentionError) return errors.unavailable();
  // The store refused a path that is not collection/id pairs: no such record can exist.
  if (err instanceof StorePathError) return errors.notFound();
  // The router could not percent-decode a path parameter (`%ZZ`).
  if (err instanceof URIError) return undecodablePath();
  if (err instanceof DocumentExistsError) return lostCreateRace();
  // body-parser marks its errors with a `type`.
  const type = (err as { type?: string } | null)?.type;
  if (type === "entity.parse.failed") return errors.invalidJson();
  if (type === "entity.too.large") return errors.payloadTooLarge();
  if (type === "encoding.unsupported" || type === "charset.unsupported") return errors.unsupportedMediaType();
  return null;
}

/**
 * Two requests read a document as absent and both created it; the store refused the second
 * commit. Nothing of it was written, and a retry reads what the winner wrote and answers
 * what fits (`slug_taken`, an idempotent replay), so it is a 503 to retry, never a 500. The
 * path is not shown: it may hold a token's hash.
 */
const lostCreateRace = () =>
  new ApiError(
    "unavailable",
    "another request created the same record at the same moment; retry in a moment and you get the answer that fits what it wrote",
    undefined,
    { "Retry-After": "1" },
  );

/** Store failures that a retry in a moment resolves: pages and feeds answer them as 503 too. */
export function isTransientStoreError(err: unknown): boolean {
  return (
    err instanceof ContentionError ||
    err instanceof DocumentExistsError ||
    (err instanceof ApiError && err.status === 503)
  );
}

const undecodablePath = () =>
  errors.invalid(
    "invalid_request",
    "the path is not valid percent-encoding (a `%` must start a valid UTF-8 escape such as `%2F`); fix the address",
  );

export function errorMiddleware(deps: Pick<Deps, "log">): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const { status, body, headers } = toErrorResponse(err, deps);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.status(status).json(body);
  };
}

/** A body on a write must be JSON; GET and DELETE bodies are ignored. */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
  if (hasBody && (req.method === "POST" || req.method === "PATCH") && !req.is("application/json")) {
    return next(errors.unsupportedMediaType());
  }
  next();
};
