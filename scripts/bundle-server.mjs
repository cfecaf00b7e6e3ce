#!/usr/bin/env node
// Bundles the local server (functions/src/server.ts) into ES modules in functions/dist/, which
// `npm start` runs: one file per part loaded on first use (server, API, pages, MCP, ...), so
// the process reads and compiles a few files instead of resolving some 300 modules in
// node_modules on its first request (issue 15: process start to first answer). The tests run
// the sources; test/api/bundled-server.test.ts runs this bundle.
//   node scripts/bundle-server.mjs [outdir]   (`npm run build` runs it)
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const OUT = process.argv[2] ?? join(ROOT, "functions/dist");

/**
 * Left in node_modules, loaded as they are: a native addon (better-sqlite3); packages that read
 * their own files at run time (firebase-admin and the Google clients under it) and are loaded
 * only on first use anyway; and data that Node loads faster as it is than as bundled code: the
 * MIME table is JSON, and iconv-lite loads its encoding tables only when a body needs one.
 */
const EXTERNAL = ["better-sqlite3", "firebase-admin", "firebase-functions", "iconv-lite", "mime-db"];

/**
 * zod's namespace object carries every locale's messages (60% of zod's code); the API speaks
 * English only (zod's default), so the bundle keeps `en` and no other.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "zod")}`)
        ? { path: join(args.resolveDir, "../locales/en.js"), namespace: "zod-en" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: ROOT,
    }));
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: [join(ROOT, "functions/src/server.ts")],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Whitespace and syntax only: names stay, so a stack trace in the log still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  external: EXTERNAL,
  // Bundled CommonJS packages call require(); in an ES module it must be made.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [zodEnglishOnly],
  logLevel: "warning",
});
