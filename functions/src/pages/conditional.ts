import { createHash } from "node:crypto";
import type { Request, Response } from "express";

/** Rendered pages are shared Buffers (the response cache hands out the same one per revision): hash each once. */
const etags = new WeakMap<Buffer, string>();

export function etagOf(body: Buffer): string {
  let etag = etags.get(body);
  if (!etag) {
    etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
    etags.set(body, etag);
  }
  return etag;
}

/**
 * A page that a cache may keep but must revalidate on every use (docs/api.md#caching-and-cors): a
 * revoked view or a calendar made private disappears at once, an unchanged page costs a 304.
 */
export function sendRevalidated(req: Request, res: Response, body: Buffer, contentType: string): void {
  const etag = etagOf(body);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("ETag", etag);
  if (ifNoneMatchHits(req.get("if-none-match"), etag)) return void res.status(304).end();
  res.status(200).type(contentType).send(body);
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
