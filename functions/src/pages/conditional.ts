import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import type { Deps } from "../domain/deps.js";
import { codeVersion } from "./code-version.js";

const opaqueTag = (hashed: string | Buffer): string =>
  `"${createHash("sha256").update(hashed).digest("base64url").slice(0, 32)}"`;

/**
 * The ETag of a page or feed kept under `key` (http/response-cache.ts, built by `answerKey`):
 * known from what the key reads, so a client's current copy is answered 304 before any event is
 * read, on any instance. Besides the data the key names, the bytes depend only on the code
 * that renders them (code-version.ts) and the origin feeds write into links and UIDs; rendering
 * reads no clock and nothing of the request, so equal ETags mean equal bytes: a strong validator.
 */
export async function answerEtag(deps: Pick<Deps, "baseUrl">, key: string): Promise<string> {
  return opaqueTag(`${await codeVersion()}\n${deps.baseUrl}\n${key}`);
}

/**
 * A page that a cache may keep but must revalidate on every use (docs/api.md#caching-and-cors): a
 * revoked view or a calendar made private disappears at once, an unchanged page costs a 304.
 * The ETag hashes the body, already at hand (purpose.md, read with its calendar).
 */
export function sendRevalidated(req: Request, res: Response, body: Buffer, contentType: string): void {
  const etag = opaqueTag(body);
  if (notModified(req, res, etag)) return;
  revalidatable(res, etag);
  res.status(200).type(contentType).send(body);
}

/** As sendRevalidated, with the ETag known before the body (answerEtag): `body` runs only on a 200. */
export async function sendRevalidatedAs(
  req: Request,
  res: Response,
  etag: string,
  contentType: string,
  body: () => Promise<Buffer>,
): Promise<void> {
  if (notModified(req, res, etag)) return;
  const sent = await body();
  // Set once the body is there: an error page instead must not carry the page's validator.
  revalidatable(res, etag);
  res.status(200).type(contentType).send(sent);
}

/** Answers 304 when the request's If-None-Match names `etag`. */
function notModified(req: Request, res: Response, etag: string): boolean {
  if (!ifNoneMatchHits(req.get("if-none-match"), etag)) return false;
  revalidatable(res, etag);
  res.status(304).end();
  return true;
}

function revalidatable(res: Response, etag: string): void {
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("ETag", etag);
}

/**
 * RFC 9110 13.1.2: a list of ETags (weak comparison) or "*". Unlike Express' `req.fresh`, a
 * request `Cache-Control: no-cache` does not prevent the 304: Firebase Hosting's proxy adds
 * that header to every request it forwards, and the origin validating is what it asks for.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
