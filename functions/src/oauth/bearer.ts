/**
 * `/mcp`'s check of a sent bearer token: the SDK's `requireBearerAuth` on the agent tokens. The
 * SDK decides (401, and `WWW-Authenticate` with the OAuth error and the resource metadata); the
 * API's error handler writes the body, so /mcp answers in the one envelope of docs/api.md.
 */
import type { RequestHandler, Response } from "express";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { HttpDeps } from "../http/deps.js";
import { ApiError } from "../http/errors.js";
import { resourceMetadataUrl } from "./paths.js";
import { AlmanacOAuthProvider } from "./provider.js";

export function bearerCheck(deps: HttpDeps): RequestHandler {
  const check = requireBearerAuth({
    verifier: new AlmanacOAuthProvider(deps),
    resourceMetadataUrl: resourceMetadataUrl(deps.baseUrl),
  });
  return (req, res, next) => {
    const json = res.json.bind(res);
    const restore = () => {
      res.json = json;
    };
    // The SDK's refusal, its OAuth body set aside for the envelope.
    res.json = (body: unknown) => {
      restore();
      next(refusalOf(res, body));
      return res;
    };
    void check(req, res, (err?: unknown) => {
      restore();
      next(err);
    });
  };
}

function refusalOf(res: Response, body: unknown): Error {
  const { error_description: why } = (body ?? {}) as { error_description?: unknown };
  if (res.statusCode !== 401) return new Error(`bearer check answered ${res.statusCode}: ${String(why)}`);
  const challenge = String(res.getHeader("WWW-Authenticate") ?? "");
  return new ApiError("unauthorized", `${String(why)}; use another token, or refresh it`, undefined, {
    "WWW-Authenticate": challenge,
  });
}
