/**
 * The local server: the API, the pages and hosting/ in one Node process on the embedded
 * SQLite store. `npm start` runs it.
 *   PORT (default 8787), DATA_DIR (default ./.data), PUBLIC_BASE_URL (default http://localhost:PORT),
 *   and the rest of docs/configuration.md: read once, by `readConfig` (config.ts), onto `deps.config`.
 */
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ConfigError, readConfig, readLocalServer, type Config } from "./config.js";
import { loadOnce } from "./lazy.js";
import { underRepository } from "./disk-paths.js";
import { isHumansPath } from "./pages/humans/paths.js";
import { isOAuthPath } from "./oauth/paths.js";
import { startLocalAuthEmulator } from "./local-auth.js";
import { LAYOUT } from "./domain/paths.js";
import type { HttpDeps } from "./http/deps.js";
import { expensiveReadGateFor } from "./http/expensive-reads.js";
import { ResponseCache } from "./http/response-cache.js";
import { senderOnFirstUse } from "./outbound/lazy.js";
import { openSqliteStore, StoreConfigError } from "./storage/index.js";
import { startJob, startJobLater } from "./jobs/local-driver.js";
import { sweepJob } from "./jobs/sweep.js";

export interface LocalServerOptions {
  port: number;
  dataDir: string;
  baseUrl?: string;
  log?: (line: string) => void;
  clock?: () => Date;
  /** Overrides of SERVER_TIMEOUTS (tests use short ones). */
  timeouts?: Partial<ServerTimeouts>;
  /** The configuration (`main` reads it); by default `readConfig(process.env)`, read here once. */
  config?: Config;
}

export interface ServerTimeouts {
  /** All of a request's headers must arrive within this, from its first byte (else 408, socket closed). */
  headersMs: number;
  /** The whole request, body included (at most 64 KiB), must arrive within this. */
  requestMs: number;
  /** An idle kept-alive socket is closed after this; shorter than headersMs, as Node advises. */
  keepAliveMs: number;
  /** How often Node checks the two limits above on open sockets. */
  checkIntervalMs: number;
}

/** When webhook delivery starts; then a pass every second, and at once on a change of this process. */
export const WEBHOOK_PASS_MS = 1_000;

/**
 * A slow or stalled client cannot hold a socket for minutes (Node's defaults are
 * 60 s for headers and 300 s for a request). Bodies are at most 64 KiB, so 30 s is generous.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

export async function startLocalServer(
  options: LocalServerOptions,
): Promise<{ server: Server; deps: HttpDeps; close: () => Promise<void> }> {
  const config = options.config ?? readConfig(process.env);
  const store = await openSqliteStore(resolve(options.dataDir, "almanac.sqlite"), LAYOUT);
  const deps: HttpDeps = {
    config,
    store,
    clock: options.clock ?? (() => new Date()),
    baseUrl: (options.baseUrl ?? `http://localhost:${options.port}`).replace(/\/+$/, ""),
    log: options.log ?? ((line) => console.log(line)),
    memory: {},
    cache: new ResponseCache(),
    expensiveReads: expensiveReadGateFor(config),
    sender: senderOnFirstUse(config.webhooks),
  };
  // Expired records (what Firestore's TTL policies delete deployed): a pass now, then every 10 minutes.
  const sweep = startJob(sweepJob, { store, clock: deps.clock, log: deps.log });
  // Webhook deliveries, alarms, the purge of deleted calendars and outside feeds: each job loads with its first run.
  const later = [
    startJobLater(async () => (await import("./jobs/webhooks/build.js")).webhookJobFromConfig(deps), deps, {
      startAfterMs: WEBHOOK_PASS_MS,
    }),
    startJobLater(async () => (await import("./jobs/alarms.js")).alarmsJob, deps, { startAfterMs: ALARMS_AFTER_MS }),
    startJobLater(async () => (await import("./jobs/purge.js")).purgeJob, deps, { startAfterMs: PURGE_AFTER_MS }),
    startJobLater(async () => (await import("./jobs/feeds.js")).feedJobFromConfig(deps), deps, {
      startAfterMs: FEEDS_AFTER_MS,
    }),
  ];
  // Each app is built, with its modules, by the first request for it: the process starts with
  // the store and node:http only, an API call never loads the pages (lazy.ts).
  const api = onFirstRequest(deps, async () => (await import("./app.js")).createApiApp(deps));
  const pages = onFirstRequest(deps, async () => (await import("./pages/app.js")).createPagesApp(deps));
  // Everything else: the static files of hosting/ (llms.txt, docs/*.md), as Firebase Hosting serves them.
  const hosting = onFirstRequest(deps, async () => {
    const { default: express } = await import("express");
    return express()
      .disable("x-powered-by")
      .use(express.static(HOSTING_DIR, { setHeaders: setTextType }));
  });
  // Each app answers its own 404s; requests are dispatched by path, as Hosting rewrites do.
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const server = createServer({ connectionsCheckingInterval: timeouts.checkIntervalMs }, (req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    const app = isApiPath(path) ? api : isPagesPath(path) ? pages : hosting;
    app(req, res);
  });
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  await new Promise<void>((done) => server.listen(options.port, done));
  const close = async () => {
    await Promise.all([sweep, ...later].map((job) => job.stop()));
    await new Promise<void>((done) => server.close(() => done()));
    await store.close();
  };
  return { server, deps, close };
}

/** When the alarms job starts (loaded then); it then wakes at each alarm due and at least every second. */
const ALARMS_AFTER_MS = 1_000;

/** When the purge of deleted calendars starts: after the first answers, which it must not slow. */
const PURGE_AFTER_MS = 2_000;

/** When outside feeds are first fetched (docs/decisions/feeds.md); then at each feed due, and on this process's changes. */
const FEEDS_AFTER_MS = 3_000;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A handler built on its first request. Should that fail (a module missing), the request is
 * answered 503 as the deployed functions answer it (index.ts), and the next one tries again.
 */
function onFirstRequest(deps: Pick<HttpDeps, "log">, build: () => Promise<Handler>): Handler {
  const app = loadOnce(build);
  return (req, res) => {
    app().then(
      (handle) => handle(req, res),
      (err: unknown) => {
        deps.log(`startup failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        const message = "the server could not load what this request needs; retry in a moment (see the server's log)";
        const api = isApiPath((req.url ?? "/").split("?", 1)[0]);
        res.writeHead(503, {
          "Content-Type": api ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
          "Cache-Control": "no-store",
          "Retry-After": "1",
        });
        res.end(api ? JSON.stringify({ error: { code: "unavailable", message } }) : `${message}\n`);
      },
    );
  };
}

const HOSTING_DIR = underRepository("hosting");
const TEXT_TYPES: Record<string, string> = {
  ".md": "text/markdown; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};
const setTextType = (res: ServerResponse, path: string): void => {
  const type = TEXT_TYPES[extname(path)];
  if (type) res.setHeader("Content-Type", type);
};

/** Hosting rewrites these to the api function (firebase.json), the authorization server of /mcp with them. */
const isApiPath = (path: string): boolean =>
  path === "/openapi.json" ||
  path === "/mcp" ||
  path === "/mcp/public" ||
  path === "/v1" ||
  path.startsWith("/v1/") ||
  isOAuthPath(path);
/** Hosting rewrites `/c/**`, `/v/**`, `/claim/**` and `/account/**` to the pages function. */
const isPagesPath = (path: string): boolean => path.startsWith("/c/") || path.startsWith("/v/") || isHumansPath(path);

/** `npm start`: the server on PORT and DATA_DIR, with the Auth emulator beside it, until a signal stops both. */
export async function main(): Promise<void> {
  let config: Config;
  let local: { port: number; dataDir: string };
  try {
    config = readConfig(process.env);
    local = readLocalServer(process.env);
  } catch (err) {
    // A variable set wrong is said in one line, without a stack.
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Almanac cannot start: ${err.message}`);
    process.exit(1);
  }
  const { port, dataDir } = local;
  // Sign-in for the claim and account pages: the Firebase Auth emulator, no cloud project (local-auth.ts).
  const auth = await startLocalAuthEmulator({ dataDir, log: console.log });
  const { close } = await startLocalServer({ port, dataDir, baseUrl: config.publicBaseUrl ?? undefined, config }).catch(
    async (err: unknown) => {
      await auth?.stop();
      // A setup the person can fix (the data directory in use) is said in one line, without a stack.
      if (err instanceof StoreConfigError) {
        console.error(`Almanac cannot start: ${err.message}`);
        process.exit(1);
      }
      throw err;
    },
  );
  console.log(`Almanac listening on http://localhost:${port} (data in ${resolve(dataDir)})`);
  auth?.ready.then(
    (host) => console.log(`Sign-in ready at http://localhost:${port}/account (Firebase Auth emulator on ${host})`),
    (err: Error) => console.log(`Sign-in is off: ${err.message}`),
  );
  // Once: Ctrl-C reaches both this process and npm start's (scripts/start.mjs), which passes signals on.
  let stopping: Promise<unknown> | undefined;
  const stop = () => void (stopping ??= Promise.all([close(), auth?.stop()]).then(() => process.exit(0)));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

// Run as a script: functions/dist/server.cjs (npm start), functions/lib/server.js, or with tsx.
// In the bundle import.meta.url is the bundle's (scripts/bundle.mjs); required, it only loads.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
