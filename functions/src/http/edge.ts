import type { RequestHandler } from "express";
import { errors } from "../domain/errors.js";
import { httpErrors } from "./errors.js";

/** docs/api.md#bounded-work: no query value (or name) longer than this reaches a handler or a cache key. */
export const MAX_QUERY_VALUE = 1000;

/**
 * The name of the first query parameter whose name or value is over MAX_QUERY_VALUE
 * characters, or null. `query` as Express' "simple" parser gives it: strings or arrays of strings.
 */
export function overlongQueryParam(query: Record<string, unknown>): string | null {
  for (const [name, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    if (name.length > MAX_QUERY_VALUE || values.some((v) => typeof v === "string" && v.length > MAX_QUERY_VALUE)) {
      return name.slice(0, 40);
    }
  }
  return null;
}

/** The refusal of a query whose parameter `name` is over MAX_QUERY_VALUE characters. */
export const overlongQueryError = (name: string) =>
  errors.invalid(
    "invalid_request",
    `the query parameter \`${name}\` is over ${MAX_QUERY_VALUE} characters; send a shorter value`,
    { field: name },
  );

/** `/v1`: a query value over 1,000 characters is 400 invalid_request, before any handler runs. */
export const refuseLongQueryValues: RequestHandler = (req, _res, next) => {
  const name = overlongQueryParam(req.query);
  next(name === null ? undefined : overlongQueryError(name));
};

/**
 * `/v1` accepts bodies as sent: a request `Content-Encoding` other than `identity` (gzip, br, ...)
 * is 415 (docs/api.md#wire-basics), so no compressed body is ever inflated.
 */
export const refuseContentEncoding: RequestHandler = (req, _res, next) => {
  const header = req.headers["content-encoding"];
  if (header === undefined) return next();
  const codings = header.split(",").map((c) => c.trim().toLowerCase());
  if (codings.every((c) => c === "identity" || c === "")) return next();
  next(httpErrors.compressedBody());
};
