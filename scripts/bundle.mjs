#!/usr/bin/env node
// One build configuration for both ways the service runs:
//   functions/dist/index.mjs   the deployed Cloud Functions, with its chunks (functions/package.json
//                              `main`, what `firebase deploy` uploads; its predeploy runs this)
//   functions/dist/server.cjs  the local server, which `npm start` runs (scripts/start.mjs)
// Every module an entry may load is read from a few files instead of resolved among hundreds
// in node_modules; the parts loaded on first use (API, pages, MCP, ...) are still evaluated
// only when first needed. The tests run the sources; test/api/bundled-server.test.ts
// runs the local bundle, test/e2e the deployed one.
//   node scripts/bundle.mjs [outdir]   (`npm run build` and `npm start` run it)
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
 * The deployed functions leave out what only the local server loads: better-sqlite3 (its
 * adapter is reached through a lazy import that the functions never make). firebase-functions
 * stays a package of its own in both: `firebase deploy` reads the functions and their settings
 * (`defineInt`...) through the SDK it loads itself, which must be the one the code registered with.
 */
const DEPLOYED_EXTERNAL = [...EXTERNAL, "better-sqlite3"];

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

// Emptied first: nothing of an earlier build's layout is left behind.
rmSync(OUT, { recursive: true, force: true });

const shared = {
  bundle: true,
  platform: "node",
  target: "node20",
  // Whitespace and syntax only: names stay, so a stack trace in the log still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [zodEnglishOnly],
  logLevel: "warning",
};

/**
 * The local server: one CommonJS file. CommonJS has no import.meta; the modules that read it
 * (disk-paths.ts, server.ts) get the file's URL. import() of a package left external becomes
 * require(): its CommonJS build, as the rest of the bundle is, and no ES module loader to start.
 * "use strict" first: as its first statement it makes the whole file strict, as the ES modules
 * it is made of are (esbuild's own comes after the banner, where it says nothing).
 */
const localServer = build({
  ...shared,
  entryPoints: [join(ROOT, "functions/src/server.ts")],
  outfile: join(OUT, "server.cjs"),
  format: "cjs",
  define: { "import.meta.url": "__bundleUrl" },
  supported: { "dynamic-import": false },
  banner: { js: "\"use strict\";const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  external: EXTERNAL,
});

/**
 * The deployed functions: ES modules split at every lazy import(), so a cold start parses the
 * entry and what its first request loads, not the MCP SDK or the pages of the other function
 * (docs/performance.md: 0.1 s of CPU less than one file; the local server, which loads both
 * apps at once, starts faster as one file). `require` is given to the CommonJS packages inside.
 */
const deployed = build({
  ...shared,
  entryPoints: [join(ROOT, "functions/src/index.ts")],
  outdir: OUT,
  format: "esm",
  splitting: true,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunk-[hash]",
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  external: DEPLOYED_EXTERNAL,
});

await Promise.all([localServer, deployed]);
