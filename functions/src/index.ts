/**
 * The deployed Cloud Functions, and nothing else: `api` (/v1 and /openapi.json) and `pages`
 * (/c/... and /v/..., feeds included), as firebase.json's Hosting rewrites route them, and
 * the scheduled `alarms`, `webhooks`, `purges` and `feeds`. The apps and the Firestore client load on
 * the first request (or run), so that importing this module (the cold start, and
 * `firebase deploy` reading the function list) stays cheap.
 */
import type { Express, Request, Response } from "express";
import * as logger from "firebase-functions/logger";
import { defineInt, defineString } from "firebase-functions/params";
import { onRequest, type HttpsOptions } from "firebase-functions/v2/https";
import { onSchedule } from "firebase-functions/v2/scheduler";
import type { LogFields } from "./domain/deps.js";
import type { HttpDeps } from "./http/deps.js";

/**
 * Deployment settings, read by `firebase deploy` from functions/.env (or .env.<project>),
 * else these defaults (docs/deploy.md). `FUNCTION_REGION` and other `FUNCTION_*`,
 * `K_*`, `GCLOUD_*` names are reserved by the runtime and cannot be set.
 */
const region = defineString("ALMANAC_REGION", {
  default: "us-central1",
  description: "Cloud Functions region of api and pages",
});
const memoryMiB = defineInt("ALMANAC_MEMORY_MIB", {
  default: 512,
  description: "memory per instance, MiB (128, 256, 512, 1024, 2048, 4096, ...)",
});
const cpu = defineInt("ALMANAC_CPU", {
  default: 1,
  description: "vCPUs per instance; at least 1 for a concurrency above 1",
});
const concurrency = defineInt("ALMANAC_CONCURRENCY", {
  default: 80,
  description: "requests one instance serves at once",
});
const timeoutSeconds = defineInt("ALMANAC_TIMEOUT_SECONDS", {
  default: 60,
  description: "longest a request may run, seconds",
});
const minInstances = defineInt("ALMANAC_MIN_INSTANCES", {
  default: 0,
  description: "instances kept warm (billed while idle)",
});
const maxInstances = defineInt("ALMANAC_MAX_INSTANCES", {
  default: 20,
  description: "upper bound on instances (bounds cost and Firestore load)",
});

export const FUNCTION_OPTIONS: HttpsOptions = {
  region,
  memory: memoryMiB,
  // The SDK types `cpu` as a number only, but it writes an expression through to the deploy
  // manifest like the other options, and firebase-tools resolves it (tested in test/e2e).
  cpu: cpu as unknown as number,
  concurrency,
  timeoutSeconds,
  minInstances,
  maxInstances,
};

/** Structured entries for Cloud Logging (severity, message, fields in jsonPayload, trace). */
export function cloudLog(line: string, fields: LogFields = {}): void {
  const { severity = "INFO", ...rest } = fields;
  logger.write({ severity, message: line, ...rest });
}

/** A promise built on first use; a rejected one is dropped, so the next request tries again. */
function retryingOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= build().catch((err: unknown) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}

const productionDeps = retryingOnce(async (): Promise<HttpDeps> => {
  const { openFirestoreStore } = await import("./storage/index.js");
  const { LAYOUT } = await import("./domain/paths.js");
  const { ResponseCache } = await import("./http/response-cache.js");
  const { senderOnFirstUse } = await import("./outbound/lazy.js");
  const { expensiveReadGateFor } = await import("./http/expensive-reads.js");
  // The configuration, read once per instance (a failed start reads it again): docs/configuration.md.
  const { readConfig } = await import("./config.js");
  const config = readConfig(process.env);
  return {
    config,
    store: await openFirestoreStore(LAYOUT, config.firestore),
    clock: () => new Date(),
    baseUrl: config.publicBaseUrl ?? `https://${config.projectId}.web.app`,
    log: cloudLog,
    memory: {},
    cache: new ResponseCache(),
    expensiveReads: expensiveReadGateFor(config),
    // Built on its first use: an instance that sends no webhook test never loads node:https.
    sender: senderOnFirstUse(config.webhooks),
  };
});

/**
 * The app behind one function. Should it fail to start (the store unreachable or not
 * configured), this request is answered 503 at once and the next one starts it afresh.
 */
function lazyApp(
  build: () => Promise<Express>,
  answerUnavailable: (res: Response, detail: string | null, requestId: string | undefined) => void,
) {
  const app = retryingOnce(build);
  return onRequest(FUNCTION_OPTIONS, async (req: Request, res: Response) => {
    let handler: Express;
    try {
      handler = await app();
    } catch (err) {
      // Without an app, the answer still carries its X-Request-Id (loaded here: not at cold start).
      const requestId = await import("./http/request-id.js").then(
        ({ assignRequestId }) => assignRequestId(req, res),
        () => undefined,
      );
      cloudLog(`startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, {
        severity: "ERROR",
        request_id: requestId,
      });
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Retry-After", "1");
      // The cause is shown only in the emulator (a developer's machine), never when deployed.
      const local = process.env.FUNCTIONS_EMULATOR === "true";
      return answerUnavailable(res, local && err instanceof Error ? err.message : null, requestId);
    }
    handler(req, res);
  });
}

/**
 * Webhook passes shortly after each write of this instance; the scheduled function covers the
 * rest. The delivery code loads with the instance's first write, so a first request that only
 * reads does not pay for it.
 */
async function deliverAfterWrites(deps: HttpDeps): Promise<void> {
  const { onAnyChangeSignal } = await import("./domain/change-signals.js");
  const stopWaiting = onAnyChangeSignal(() => {
    stopWaiting();
    Promise.all([import("./jobs/webhooks/build.js"), import("./jobs/local-driver.js")]).then(
      ([{ webhookJobFromConfig }, { startJob }]) => {
        const running = startJob(webhookJobFromConfig(deps), deps, { onlyOnChange: true });
        // This first write signalled before the job listened: its changes get a pass too.
        setTimeout(() => running.kick(), 150).unref();
      },
      (err: unknown) => cloudLog(`webhook delivery did not start: ${String(err)}`, { severity: "ERROR" }),
    );
  });
}

export const api = lazyApp(
  async () => {
    const { createApiApp } = await import("./app.js");
    const deps = await productionDeps();
    await deliverAfterWrites(deps);
    // Behind Hosting: the client address for rate limits is in X-Forwarded-For (http/rate-limit.ts).
    return createApiApp(deps, undefined, { behindProxy: true });
  },
  (res, detail, requestId) => {
    const message = `the service could not start; retry in a moment${detail ? ` (${detail})` : ""} (see /docs/errors.md#unavailable)`;
    res.status(503).json({ error: { code: "unavailable", message, request_id: requestId } });
  },
);

export const pages = lazyApp(
  async () => {
    const { createPagesApp } = await import("./pages/app.js");
    return createPagesApp(await productionDeps(), { behindProxy: true });
  },
  (res, detail, requestId) => {
    const text = `The calendar service could not start. Reload in a moment.\n${detail ? `\n${detail}\n` : ""}`;
    res
      .status(503)
      .type("text/plain; charset=utf-8")
      .send(`${text}${requestId ? `Request id: ${requestId}\n` : ""}`);
  },
);

/** The scheduled functions run every minute, each on one instance at a time, within 60 s. */
const EVERY_MINUTE = {
  schedule: "every 1 minutes",
  region,
  memory: memoryMiB,
  timeoutSeconds: 60,
  maxInstances: 1,
  retryCount: 0,
};

/**
 * Alarms coming due (docs/decisions/alarms.md): passes of the alarms job for up to 45 s a minute,
 * again at once while one leaves heads due and at the next alarm's instant when it falls inside
 * the run, so an alarm is recorded within the minute after its instant, most at it.
 */
export const alarms = onSchedule(EVERY_MINUTE, async () => {
  const [{ alarmsJob }, { runWithin }] = await Promise.all([
    import("./jobs/alarms.js"),
    import("./jobs/scheduled-driver.js"),
  ]);
  const { done } = await runWithin(alarmsJob, await productionDeps(), 45_000);
  if (done > 0) cloudLog(`alarms: ${done} fired`);
});

/** How long one scheduled run delivers, within its 60 s timeout (docs/decisions/webhooks.md). */
const WEBHOOK_DRAIN_MS = 50_000;

/**
 * Webhook deliveries every minute: passes for up to ~50 s while anything is due, so a change
 * written on an instance that then went idle is delivered within about a minute.
 */
export const webhooks = onSchedule(EVERY_MINUTE, async () => {
  const [{ webhookJobFromConfig }, { runWithin }] = await Promise.all([
    import("./jobs/webhooks/build.js"),
    import("./jobs/scheduled-driver.js"),
  ]);
  const deps = await productionDeps();
  const result = await runWithin(webhookJobFromConfig(deps), deps, WEBHOOK_DRAIN_MS);
  if (result.done > 0) cloudLog(`webhooks: ${result.done} delivered in ${result.passes} passes`);
});

/**
 * Deleted calendars' documents (docs/decisions/calendar-deletion.md): passes of bounded batches
 * while work is left, for up to 45 s a minute. The queue lives in Firestore, so a purge cut
 * short by a deploy or a crash goes on at the next run.
 */
export const purges = onSchedule(EVERY_MINUTE, async () => {
  const [{ purgeJob }, { runWithin }] = await Promise.all([
    import("./jobs/purge.js"),
    import("./jobs/scheduled-driver.js"),
  ]);
  const { done } = await runWithin(purgeJob, await productionDeps(), 45_000);
  if (done > 0) cloudLog(`purges: ${done} deleted calendars purged`);
});

/**
 * Outside iCalendar feeds attached as layers (docs/decisions/feeds.md): passes for up to 40 s a
 * minute while feeds are due; each fetch ends within its 10 s, so a run ends within its timeout.
 */
export const feeds = onSchedule(EVERY_MINUTE, async () => {
  const [{ feedJobFromConfig }, { runWithin }] = await Promise.all([
    import("./jobs/feeds.js"),
    import("./jobs/scheduled-driver.js"),
  ]);
  const deps = await productionDeps();
  const { done } = await runWithin(feedJobFromConfig(deps), deps, 40_000);
  if (done > 0) cloudLog(`feeds: ${done} refreshed`);
});
