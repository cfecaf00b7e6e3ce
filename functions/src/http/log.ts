/**
 * The log lines of the apps, written through Deps.log (one line, and on the deployed functions
 * structured fields for Cloud Logging): one per request, and one per unexpected error.
 * Never headers or bodies, which may carry tokens.
 */
import type { RequestHandler } from "express";
import type { Deps } from "../domain/deps.js";
import { requestIdOf } from "./request-id.js";

/**
 * One line per request: method, path, status, duration and request id (http/request-id.ts).
 * `pathShown` hides what a path must not reveal in a log (a share view's slug is its capability).
 */
export function requestLog(deps: Pick<Deps, "log">, pathShown = (path: string) => path): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: a router mounted at a path (the SDK's OAuth endpoints) strips it from req.path until it is done.
    const path = pathShown(req.path);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const requestId = requestIdOf(res);
      deps.log(`${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms ${requestId ?? "-"}`, {
        method: req.method,
        path,
        status: res.statusCode,
        latency_ms: Number(ms.toFixed(1)),
        request_id: requestId,
      });
    });
    next();
  };
}

/**
 * A failure nobody expected (a crash, a bug): its stack at ERROR, under what was being done
 * and, during a request, its id.
 */
export function logUnexpected(log: Deps["log"], doing: string, err: unknown, requestId?: string): void {
  const what = err instanceof Error ? (err.stack ?? err.message) : String(err);
  if (requestId === undefined) return log(`${doing}: ${what}`, { severity: "ERROR" });
  log(`${doing} (request ${requestId}): ${what}`, { severity: "ERROR", request_id: requestId });
}
