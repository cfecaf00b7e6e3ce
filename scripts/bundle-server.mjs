#!/usr/bin/env node
// Bundles the local server (functions/src/server.ts) into functions/dist/server.cjs, which
// `npm start` runs (scripts/start.mjs): every module it may load in one CommonJS file, read
// once instead of resolving some 300 modules in node_modules; the parts loaded on first use
// (API, pages, MCP, ...) are still evaluated only when first needed. The tests run the
// sources; test/api/bundled-server.test.ts runs this bundle.
//   node scripts/bundle-server.mjs [outdir]   (`npm run build` and `npm start` run it)
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const OUT = process.argv[2] ?? join(ROOT, "functions/dist");

/**
 * Left in node_modules, loaded as they are: packages that read their own files at run time
 * (firebase-admin and the Google clients under it) and are loaded only on first use anyway; and
 * data that Node loads as fast as it is as bundled code: the MIME table is JSON, and iconv-lite
 * loads its encoding tables only when a body needs one. better-sqlite3's JavaScript is bundled;
 * its compiled addon is loaded from node_modules (storage/sqlite/index.ts names it).
 */
const EXTERNAL = ["firebase-admin", "firebase-functions", "iconv-lite", "mime-db"];

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

// CommonJS has no import.meta; the modules that read it (disk-paths.ts, server.ts) get the file's URL.
const commonJs = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__bundleUrl" },
  // import() of a package left external becomes require(): its CommonJS build, as the rest of the
  // bundle is, and no ES module loader to start.
  supported: { "dynamic-import": false },
  // "use strict" first: as its first statement it makes the whole file strict, as the ES modules
  // it is made of are (esbuild's own comes after the banner, where it says nothing).
  banner: { js: "\"use strict\";const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
};

// Emptied first: nothing of an earlier build's layout is left behind.
rmSync(OUT, { recursive: true, force: true });
await build({
  ...commonJs,
  entryPoints: [join(ROOT, "functions/src/server.ts")],
  outfile: join(OUT, "server.cjs"),
  // Whitespace and syntax only: names stay, so a stack trace in the log still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  plugins: [zodEnglishOnly],
});
