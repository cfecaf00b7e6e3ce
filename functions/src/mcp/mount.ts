/**
 * Where `/mcp` joins the API app. The MCP SDK and the tool list load on the first /mcp
 * request (a dynamic import), so a cold start that serves /v1 never pays for them.
 */
import type { Express } from "express";
import type { Deps } from "../domain/deps.js";
import { httpErrors } from "../http/errors.js";
import type { AnyRoute } from "../http/route.js";
import { loadOnce } from "../lazy.js";

export const MCP_PATH = "/mcp";

export function mountMcp(app: Express, deps: Pick<Deps, "log">, routes: readonly AnyRoute[]): void {
  const mcp = loadOnce(async () => (await import("./server.js")).mcpHandler(app, deps, routes));
  app.post(MCP_PATH, (req, res, next) => {
    mcp()
      .then((handle) => handle(req, res, next))
      .catch(next);
  });
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  app.all(MCP_PATH, (req, _res, next) => next(httpErrors.methodNotAllowed(req.method, ["POST"])));
}
