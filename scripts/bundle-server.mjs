#!/usr/bin/env node
// Bundles the local server (functions/src/server.ts) into functions/dist/, which `npm start`
// runs (issue 15: process start to first answer):
//   server.cjs  the server, every module it may load in one CommonJS file: read and compiled
//               once instead of resolving some 300 modules in node_modules; the parts loaded on
//               first use (API, pages, MCP, ...) are still evaluated only when first needed.
//   start.cjs   the entry (functions/src/start-bundle.ts): runs server.cjs with a V8 code cache,
//   server.cjs.v8-cache  which this script has the new bundle write by starting it once.
// One file rather than ES modules split per part, because Node 20 can cache the compiled code
// of a script (vm.Script) but not of an ES module. The tests run the sources;
// test/api/bundled-server.test.ts runs this bundle.
//   node scripts/bundle-server.mjs [outdir]   (`npm run build` runs it)
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { START_NODE_FLAGS } from "./start-flags.mjs";

const ROOT = join(import.meta.dirname, "..");
const OUT = process.argv[2] ?? join(ROOT, "functions/dist");
/** Written by start.cjs beside the bundle (functions/src/start-bundle.ts). */
const CODE_CACHE = "server.cjs.v8-cache";

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

/**
 * Every character outside ASCII as a `\\u` escape. esbuild escapes most, but leaves them in
 * tagged templates and regular expressions (the pages' `html\`… – …\``), where the escape means
 * the same character; none of the bundled code reads a template's `raw` text. An ASCII file
 * can be read as latin1, which Node 20 does eight times faster than decoding UTF-8.
 */
const toAscii = (code) =>
  code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

// CommonJS has no import.meta; the modules that read it (disk-paths.ts, server.ts) get the file's URL.
const commonJs = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__bundleUrl" },
  // import() of a package left external becomes require(): a script compiled with vm.Script has no ES module loader.
  supported: { "dynamic-import": false },
  // "use strict" first: as its first statement it makes the whole file strict, as the ES modules
  // it is made of are (esbuild's own comes after the banner, where it says nothing).
  banner: { js: "\"use strict\";const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
};

// The code cache outlives a build: start.cjs uses it only when it was made from this very
// bundle (its SHA-256 is in it), so a start after a build that changed nothing compiles nothing.
mkdirSync(OUT, { recursive: true });
for (const entry of readdirSync(OUT))
  if (entry !== CODE_CACHE) rmSync(join(OUT, entry), { recursive: true, force: true });
const server = await build({
  ...commonJs,
  entryPoints: [join(ROOT, "functions/src/server.ts")],
  // Whitespace and syntax only: names stay, so a stack trace in the log still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  external: EXTERNAL,
  plugins: [zodEnglishOnly],
  write: false,
});
// Written inside the function Node wraps a CommonJS module in, so that start.cjs compiles the
// file's text as it is: wrapping it there would hold a second 1.6 MB copy.
const bundle = `(function (exports, require, module, __filename, __dirname) { ${toAscii(server.outputFiles[0].text)}\n});`;
writeFileSync(join(OUT, "server.cjs"), bundle);
const sha256 = createHash("sha256").update(bundle).digest();
await build({
  ...commonJs,
  entryPoints: [join(ROOT, "functions/src/start-bundle.ts")],
  outfile: join(OUT, "start.cjs"),
  define: { ...commonJs.define, BUNDLE_SHA256: JSON.stringify(sha256.toString("hex")) },
});
if (!codeCacheIsOf(sha256)) await firstStart(sha256);

/** Whether the code cache beside the bundle was made from this bundle (start-bundle.ts's header). */
function codeCacheIsOf(sha256) {
  try {
    return readFileSync(join(OUT, CODE_CACHE)).subarray(0, sha256.length).equals(sha256);
  } catch {
    return false;
  }
}

/**
 * The bundle's first start, here rather than in the first `npm start` after the build: with
 * npm start's flags (the cache is V8's for those only), on a data directory of its own, asked
 * once, then stopped once start.cjs has written its code cache. Should it fail (no port to
 * listen on, say), the build still stands and the first `npm start` writes the cache instead.
 */
async function firstStart(sha256) {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-build-"));
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ALMANAC_AUTH_EMULATOR: "off" };
  const child = spawn(process.execPath, [...START_NODE_FLAGS, join(OUT, "start.cjs")], { env, stdio: "ignore" });
  const exited = new Promise((done) => child.once("exit", done));
  try {
    for (const deadline = Date.now() + 20_000; !codeCacheIsOf(sha256);) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error("no answer and no code cache within 20 s");
      await fetch(`http://127.0.0.1:${port}/v1/me`).catch(() => null);
      await new Promise((done) => setTimeout(done, 50));
    }
  } catch (err) {
    console.warn(`bundle-server: the code cache is left to the first start (${err.message})`);
  } finally {
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function freePort() {
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}
