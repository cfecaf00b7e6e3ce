/**
 * The local server: the API (and, as they land, the pages and hosting/) in one Node process
 * on the embedded SQLite store. `npm start` runs it.
 *   PORT (default 8787), DATA_DIR (default ./.data), PUBLIC_BASE_URL (default http://localhost:PORT)
 */
import { resolve } from "node:path";
import express from "express";
import { createApiApp } from "./app.js";
import { openSqliteStore } from "./storage/index.js";
export async function startLocalServer(options) {
    const store = await openSqliteStore(resolve(options.dataDir, "almanac.sqlite"));
    const deps = {
        store,
        clock: options.clock ?? (() => new Date()),
        baseUrl: (options.baseUrl ?? `http://localhost:${options.port}`).replace(/\/+$/, ""),
        log: options.log ?? ((line) => console.log(line)),
    };
    const root = express();
    root.disable("x-powered-by");
    const api = createApiApp(deps);
    // Each app answers its own 404s, so requests are dispatched by path as Hosting rewrites do.
    root.use((req, res, next) => (isApiPath(req.path) ? api(req, res) : next()));
    const server = await new Promise((done) => {
        const s = root.listen(options.port, () => done(s));
    });
    const close = async () => {
        await new Promise((done) => server.close(() => done()));
        await store.close();
    };
    return { server, deps, close };
}
const isApiPath = (path) => path === "/openapi.json" || path === "/v1" || path.startsWith("/v1/");
const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
    const port = Number(process.env.PORT ?? 8787);
    const { close } = await startLocalServer({
        port,
        dataDir: process.env.DATA_DIR ?? "./.data",
        baseUrl: process.env.PUBLIC_BASE_URL,
    });
    console.log(`Almanac listening on http://localhost:${port} (data in ${resolve(process.env.DATA_DIR ?? "./.data")})`);
    const stop = () => void close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
}
//# sourceMappingURL=server.js.map