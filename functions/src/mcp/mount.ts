/**
 * Where `/mcp` joins the API app. The MCP SDK and the tool list load on the first /mcp
 * request (a dynamic import), so a cold start that serves /v1 never pays for them.
 */
import type { Express, RequestHandler } from "express";
import type { Deps } from "../domain/deps.js";
import { httpErrors } from "../http/errors.js";
import type { AnyRoute } from "../http/route.js";

export const MCP_PATH = "/mcp";

export function mountMcp(app: Express, deps: Pick<Deps, "log">, routes: readonly AnyRoute[]): void {
  let loading: Promise<RequestHandler> | undefined;
  const handler = () => {
    loading ??= import("./server.js").then(
      ({ mcpHandler }) => mcpHandler(app, deps, routes),
      (err: unknown) => {
        loading = undefined; // the next request tries again
        throw err;
      },
    );
    return loading;
  };
  app.post(MCP_PATH, (req, res, next) => {
    handler().then((handle) => handle(req, res, next), next);
  });
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  app.all(MCP_PATH, (req, _res, next) => next(httpErrors.methodNotAllowed(req.method, ["POST"])));
}
