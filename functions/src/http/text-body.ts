/**
 * An operation that also takes its body as text (an import's `text/calendar`): the text is read
 * up to the route's own limit and handed on as `{[field]: text}`, the shape its JSON body and
 * its MCP tool take, so validation and the executor see one shape whichever was sent.
 */
import express, { type Request, type RequestHandler } from "express";
import { httpErrors } from "./errors.js";

export interface TextBody {
  type: string;
  field: string;
  maxBytes: number;
}

/** A write's body must be JSON or the route's text type; GET and DELETE bodies are ignored. */
export const requireJsonOr =
  (type: string | null): RequestHandler =>
  (req, _res, next) => {
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    const accepted = req.is("application/json") || (type !== null && req.is(type));
    if (hasBody && (req.method === "POST" || req.method === "PATCH") && !accepted) {
      return next(httpErrors.unsupportedMediaType(type));
    }
    next();
  };

/**
 * Inside Cloud Functions the framework has read the body before the app runs (req.rawBody is a
 * Buffer, under a 32 MB limit of its own), so the parsers' limits never apply: this one does.
 */
export const frameworkBodyLimit =
  (maxBytes: number): RequestHandler =>
  (req, _res, next) => {
    const raw = (req as Request & { rawBody?: unknown }).rawBody;
    next(Buffer.isBuffer(raw) && raw.length > maxBytes ? httpErrors.payloadTooLarge(maxBytes) : undefined);
  };

/** The route's text body, read (or taken from what the framework read) and wrapped as `{[field]: text}`. */
export function textBody(spec: TextBody): RequestHandler {
  const parse = express.text({ type: spec.type, limit: spec.maxBytes });
  return (req, res, next) => {
    if (!req.is(spec.type)) return next();
    parse(req, res, (err?: unknown) => {
      if (err) return next(err);
      const raw = (req as Request & { rawBody?: unknown }).rawBody;
      const text: unknown = typeof req.body === "string" ? req.body : Buffer.isBuffer(raw) ? raw.toString("utf8") : "";
      req.body = { [spec.field]: text };
      next();
    });
  };
}
