/**
 * Where the authorization server joins the API app: its paths (oauth/paths.ts) go to the SDK's
 * router, loaded on the first of them, so that no other request pays for it.
 */
import type { Express, RequestHandler } from "express";
import type { HttpDeps } from "../http/deps.js";
import { loadOnce } from "../lazy.js";
import { isOAuthPath } from "./paths.js";

export function mountOAuth(app: Express, deps: HttpDeps): void {
  const router = loadOnce(async () => (await import("./router.js")).oauthRouter(deps));
  const answer: RequestHandler = (req, res, next) => {
    if (!isOAuthPath(req.path)) return next();
    router()
      .then((handle) => handle(req, res, next))
      .catch(next);
  };
  app.use(answer);
}
