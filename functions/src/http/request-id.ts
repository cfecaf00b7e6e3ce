/**
 * The id of each request, so an agent can quote it and an operator can find its log lines.
 * Every answer carries it in `X-Request-Id`: the client's own value when it is well formed
 * (up to 64 of `A-Z a-z 0-9 . _ -`), else a new one. Error envelopes repeat it as
 * `error.request_id` (http/errors.ts `withRequestId`), the request log writes it (http/log.ts).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";

export const REQUEST_ID_HEADER = "X-Request-Id";
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id, set on the response at once. Once set it stays, so whatever meets the
 * request later (the deployed function's answer when its app cannot start, index.ts) agrees.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const assigned = res.getHeader(REQUEST_ID_HEADER);
  if (typeof assigned === "string") return assigned;
  // Two headers arrive joined by ", ", which the pattern refuses: a new id then.
  const sent = req.headers["x-request-id"];
  const id = typeof sent === "string" && REQUEST_ID_PATTERN.test(sent) ? sent : newRequestId();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** First in each app, before anything can answer. */
export const requestId: RequestHandler = (req, res, next) => {
  assignRequestId(req, res);
  next();
};

/** The id this response carries; undefined only outside the apps, where none was assigned. */
export function requestIdOf(res: Pick<ServerResponse, "getHeader">): string | undefined {
  const id = res.getHeader(REQUEST_ID_HEADER);
  return typeof id === "string" ? id : undefined;
}

/** 12 random bytes: 16 characters of base64url, all within the pattern, so a client may send it back. */
const newRequestId = (): string => `req_${randomBytes(12).toString("base64url")}`;

/** A plain-text error with a last line naming its request, for a human to quote. */
export function withRequestIdLine(res: Pick<ServerResponse, "getHeader">, text: string): string {
  const id = requestIdOf(res);
  return id === undefined ? text : `${text}Request id: ${id}\n`;
}
