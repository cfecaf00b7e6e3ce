// What holds the local server's memory at idle (issue 15): one fresh process loads the server's
// parts one after another and reports its RSS and V8 heap after each, so each line's increase
// is what that part costs. The store's page cache and the response cache are measured as what
// they hold after the bench's requests. `node bench/memory.mjs` (after npm run build).
import { execFileSync } from "node:child_process";

const LIB = process.env.BENCH_LIB ?? new URL("../functions/lib", import.meta.url).pathname;

/** Runs in the child: each step, then RSS and heap (after a full GC, so garbage does not count). */
const CHILD = `
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const lib = ${JSON.stringify(LIB)};
const out = [];
const mark = (step) => {
  gc();
  const m = process.memoryUsage();
  out.push({ step, rss_mb: +(m.rss / 1048576).toFixed(1), heap_mb: +(m.heapUsed / 1048576).toFixed(1) });
};
mark("node itself");
await import("express");
mark("express (and body-parser, qs, send, router)");
await import("zod");
mark("zod");
const { openSqliteStore } = await import(join(lib, "storage/index.js"));
const { LAYOUT } = await import(join(lib, "domain/paths.js"));
const store = await openSqliteStore(join(mkdtempSync(join(tmpdir(), "almanac-mem-")), "almanac.sqlite"), LAYOUT);
mark("better-sqlite3 and the store, opened");
const { ResponseCache } = await import(join(lib, "http/response-cache.js"));
const config = (await import(join(lib, "config.js"))).readConfig(process.env);
const { expensiveReadGateFor } = await import(join(lib, "http/expensive-reads.js"));
const deps = {
  config,
  store,
  clock: () => new Date(),
  baseUrl: "http://localhost",
  log: () => {},
  memory: {},
  cache: new ResponseCache(),
  expensiveReads: expensiveReadGateFor(config),
};
const { createApiApp } = await import(join(lib, "app.js"));
createApiApp(deps);
mark("the API app (routes, schemas, rate limits)");
const { createPagesApp } = await import(join(lib, "pages/app.js"));
createPagesApp(deps);
mark("the pages app (lenses, markdown-it, helmet)");
await import(join(lib, "pages/ics.js"));
mark("the feeds' ical-generator");
process.stdout.write(JSON.stringify(out));
`;

export function benchMemory() {
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", CHILD], {
    encoding: "utf8",
  });
  const steps = JSON.parse(out);
  return steps.map((s, i) => ({
    ...s,
    rss_added_mb: i === 0 ? s.rss_mb : +(s.rss_mb - steps[i - 1].rss_mb).toFixed(1),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(benchMemory());
