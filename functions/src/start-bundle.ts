/**
 * `npm start`'s entry (functions/dist/start.cjs): runs the local server's bundle
 * (functions/dist/server.cjs, scripts/bundle-server.mjs) with a V8 code cache beside it, so that
 * a start compiles almost nothing (issue 15: process start to first answer). Node 22 keeps such
 * a cache by itself (`module.enableCompileCache`, which server.ts calls where it exists); Node 20
 * does not, and v8-compile-cache caches what a module compiles up front only: for a bundle, whose
 * modules are functions compiled when first called, that is nearly nothing.
 *
 * The cache is written once the first request has been answered, so it holds what starting and
 * a first request compile; the build makes that first start itself (scripts/bundle-server.mjs),
 * so `npm start` starts from the cache. It begins with the SHA-256 of the bundle it was made from, which the
 * build puts in start.cjs: V8 checks a cache's Node, V8 flags and the source's length, not the
 * source itself, so a rebuilt bundle of the same length would otherwise run stale bytecode.
 * When the cache is missing, from another bundle, or rejected by V8 (another Node, other flags:
 * `npm start`'s are in package.json), the next first answer writes it again.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import type * as ServerModule from "./server.js";

const BUNDLE = fileURLToPath(new URL("./server.cjs", import.meta.url));
const CACHE = `${BUNDLE}.v8-cache`;
/** Set by scripts/bundle-server.mjs: the SHA-256 (hex) of the server.cjs built with this file. */
declare const BUNDLE_SHA256: string;
const CACHE_HEADER = Buffer.from(BUNDLE_SHA256, "hex");

// The build makes the bundle ASCII (scripts/bundle-server.mjs), which reads as latin1 in 3 ms;
// Node 20 takes 25 ms to decode the same 2 MB as UTF-8.
const source = readFileSync(BUNDLE).toString("latin1");
const cachedData = codeCacheOfThisBundle();
// The file is the function Node wraps a CommonJS module in (scripts/bundle-server.mjs).
const script = new Script(source, { filename: BUNDLE, cachedData });
const bundle = { exports: {} as typeof ServerModule };
const runModule = script.runInThisContext() as CommonJsWrapper;
runModule(bundle.exports, nodeModule.createRequire(BUNDLE), bundle, BUNDLE, dirname(BUNDLE));

/** The server's module (server.ts) as the bundle has it; bench/servers.mjs starts it from here too. */
export const server = bundle.exports;
/** Hand it to the server as `afterFirstAnswer`: undefined when the cache is this bundle's and V8 took it. */
export const writeCodeCacheAfterFirstAnswer =
  cachedData !== undefined && !script.cachedDataRejected ? undefined : () => setImmediate(writeCodeCache);

// Built as CommonJS (scripts/bundle-server.mjs): `node start.cjs` runs the server; a require() of it loads it only.
if (require.main === module) {
  void server.main({ afterFirstAnswer: writeCodeCacheAfterFirstAnswer });
}

/** The function Node wraps a CommonJS module in, called as Node's own loader calls it. */
type CommonJsWrapper = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;

function codeCacheOfThisBundle(): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(CACHE);
  } catch {
    return undefined;
  }
  const header = cache.subarray(0, CACHE_HEADER.length);
  return header.equals(CACHE_HEADER) ? cache.subarray(CACHE_HEADER.length) : undefined;
}

/** Written whole or not at all: another server starting from the same bundle may be reading it. */
function writeCodeCache(): void {
  const partial = `${CACHE}.${process.pid}`;
  try {
    writeFileSync(partial, Buffer.concat([CACHE_HEADER, script.createCachedData()]));
    renameSync(partial, CACHE);
  } catch (err) {
    // Without a cache (a read-only checkout, say) every start compiles, as a first start does.
    console.log(`code cache not written (${err instanceof Error ? err.message : String(err)})`);
  }
}
