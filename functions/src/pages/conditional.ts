import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import { ifNoneMatchHits } from "./feeds.js";

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
 * A page that a cache may keep but must revalidate on every use (DECISIONS section 1): a
 * revoked view or a calendar made private disappears at once, an unchanged page costs a 304.
 */
export function sendRevalidated(req: Request, res: Response, body: Buffer, contentType: string): void {
  const etag = etagOf(body);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("ETag", etag);
  if (ifNoneMatchHits(req.get("if-none-match"), etag)) return void res.status(304).end();
  res.status(200).type(contentType).send(body);
}
