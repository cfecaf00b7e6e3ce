#!/usr/bin/env node
// Bundles web/humans.ts (sign-in on the claim and account pages) with the Firebase JS SDK into
// one ES module, functions/lib/web/humans.js, which the pages function serves from its own
// origin (pages/humans/assets.ts): the CSP allows scripts from 'self' only, no CDN.
// `npm run build` runs it; tests that need the bundle run it when it is missing
// (test/helpers/accounts.ts, ensureWebBundle).
import { build } from "esbuild";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BUNDLE = join(ROOT, "functions/lib/web/humans.js");

const result = await build({
  entryPoints: [join(ROOT, "web/humans.ts")],
  bundle: true,
  write: false,
  format: "esm",
  platform: "browser",
  target: ["es2020"],
  minify: true,
  // The SDK's licence notices stay, at the end of the file.
  legalComments: "eof",
  logLevel: "warning",
});
// Written whole, then renamed: a server (or a test in another process) never reads half a file.
mkdirSync(dirname(BUNDLE), { recursive: true });
const partial = `${BUNDLE}.${process.pid}.tmp`;
writeFileSync(partial, result.outputFiles[0].contents);
renameSync(partial, BUNDLE);
