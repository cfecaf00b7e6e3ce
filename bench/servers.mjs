// One server per child process for bench/run.mjs: `node bench/servers.mjs almanac|express|node`.
// Listens on a free port and reports it to the parent over IPC ({port}).
//   almanac: the local server (API, pages, hosting/) on SQLite in $DATA_DIR, request log off.
//   express: an Express 5 app answering {"hello":"world"}: the framework baseline.
//   node:    a bare node:http server answering the same: the runtime baseline.
//   mcp-layer: POST /mcp exactly as the local server runs it (functions/lib/mcp/server.js, the
//            SDK's server and transport per request, the same tools and executor), over
//            operations that answer every call with the bytes of $MCP_LAYER_ANSWER at once and
//            read nothing: what the MCP layer costs with no work under it (bench/mcp.mjs).
import { createServer } from "node:http";
import { createRequire } from "node:module";

const HELLO = JSON.stringify({ hello: "world" });
/** The local server's response cache: entries and the bytes they are counted for. */
let cacheStats = () => null;

async function start(kind) {
  if (kind === "almanac") {
    // As `npm start` loads it: the bundle (or another build's server.js).
    const { startLocalServer } = process.env.BENCH_LIB
      ? await import(`${process.env.BENCH_LIB}/server.js`)
      : createRequire(import.meta.url)("../functions/dist/server.cjs");
    const { server, deps } = await startLocalServer({ port: 0, dataDir: process.env.DATA_DIR, log: () => {} });
    cacheStats = () => deps.cache.stats();
    return server;
  }
  if (kind === "express") {
    const { default: express } = await import("express");
    const app = express();
    app.disable("x-powered-by");
    app.set("etag", false);
    app.get("/", (_req, res) => res.json({ hello: "world" }));
    return new Promise((done) => {
      const server = app.listen(0, () => done(server));
    });
  }
  if (kind === "mcp-layer") {
    const lib = "../functions/lib"; // the build's modules by name (the bundle exports only the server)
    const [{ default: express }, { mcpHandler }, { apiRoutes }, { PreparedJson }, { readFileSync }] = await Promise.all(
      [
        import("express"),
        import(`${lib}/mcp/server.js`),
        import(`${lib}/routes/index.js`),
        import(`${lib}/http/response-cache.js`),
        import("node:fs"),
      ],
    );
    const answer = new PreparedJson(readFileSync(process.env.MCP_LAYER_ANSWER));
    // Each operation validates as it does, then answers at once: no token to read, no calendar to load.
    const routes = apiRoutes.map((route) => ({
      ...route,
      auth: "none",
      calendar: undefined,
      scope: undefined,
      handler: async () => answer,
    }));
    const nothing = async () => null;
    const store = { get: nothing, getAll: async (refs) => refs.map(() => null), query: async () => [] };
    const config = (await import(`${lib}/config.js`)).readConfig(process.env);
    const deps = { config, store, log: () => {}, clock: () => new Date(), baseUrl: "http://localhost", memory: {} };
    const free = { charge: () => (_req, _res, next) => next() };
    const app = express();
    app.disable("x-powered-by");
    app.post("/mcp", express.json(), mcpHandler(deps, routes, free));
    return new Promise((done) => {
      const server = app.listen(0, () => done(server));
    });
  }
  if (kind === "node") {
    const server = createServer((_req, res) => {
      res.writeHead(200, {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(HELLO),
      });
      res.end(HELLO);
    });
    return new Promise((done) => server.listen(0, () => done(server)));
  }
  throw new Error(`unknown server kind ${kind}: use almanac, express, node or mcp-layer`);
}

const server = await start(process.argv[2]);
process.send({ port: server.address().port });

// bench/profile.mjs: a CPU profile of the load only, not of the start or the seeding.
let session;
process.on("message", async (m) => {
  // bench/run.mjs: what the idle process's memory is made of.
  if (m.memory) {
    if (m.memory === "gc") globalThis.gc?.();
    process.send({ memory: process.memoryUsage(), cache: cacheStats() });
  } else if (m.profile === "start") {
    const { Session } = await import("node:inspector/promises");
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    process.send({ profiling: true });
  } else if (m.profile === "stop") {
    const { profile } = await session.post("Profiler.stop");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(m.file, JSON.stringify(profile));
    process.send({ profiled: m.file });
  }
});
// A normal exit, so `node --cpu-prof` writes its profile.
process.on("SIGTERM", () => process.exit(0));
process.on("disconnect", () => process.exit(0));
