/**
 * The code a page or feed is rendered by, as a hash: what its bytes depend on besides the data
 * its cache key names, so part of its ETag (conditional.ts). A deploy that changes rendering
 * must change every ETag, or a client would keep a body the new code no longer sends; nobody
 * has to remember to bump a constant for that.
 *
 * Hashed: every module file of the code this process runs from (src/ in the tests, lib/ when
 * deployed, the bundle's directory for the local server), functions/package-lock.json (which
 * pins ical-generator, luxon and the rest), and Node's version and time zone data. Instances
 * of one build agree, so an ETag from one is answered 304 by another; source maps are left out
 * (they follow the code). Read once per process, from when the pages app is built.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { underFunctions } from "../disk-paths.js";

const MODULE_FILE = /\.(?:[cm]?js|ts)$/;

let version: Promise<string> | undefined;

export const codeVersion = (): Promise<string> =>
  (version ??= hashModules(codeRoot(), underFunctions("package-lock.json")).catch(processOnly));

/**
 * The directory right under functions/ that holds this module (src/ or lib/), or the bundle's
 * directory, whose parent disk-paths.ts takes for functions/ wherever the bundle is written.
 */
function codeRoot(): string {
  const parent = resolve(underFunctions(""));
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; dirname(dir) !== dir; dir = dirname(dir)) if (dirname(dir) === parent) return dir;
  return here;
}

/** The module files under `root` (source maps and declarations left out), `lockFile` and Node. */
export async function hashModules(root: string, lockFile: string): Promise<string> {
  const files = (await readdir(root, { recursive: true }))
    .filter((file) => MODULE_FILE.test(file) && !file.endsWith(".d.ts"))
    .sort();
  const [contents, lock] = await Promise.all([
    Promise.all(files.map((file) => readFile(join(root, file)))),
    readFile(lockFile).catch(() => null),
  ]);
  const hash = createHash("sha256").update(`${process.version}|${process.versions.tz ?? ""}`);
  files.forEach((file, i) => hash.update(`\0${file}\0`).update(contents[i]));
  if (lock) hash.update("\0lock\0").update(lock);
  return hash.digest("base64url");
}

/**
 * Unreadable code (it should not happen): ETags of this process only. Still honest, as no other
 * instance shares them; a client that moves between instances just gets the body again.
 */
const processOnly = (): string => randomBytes(16).toString("base64url");
