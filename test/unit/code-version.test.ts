/**
 * The code hash in every page and feed ETag (functions/src/pages/code-version.ts): a change to
 * any module or to the lock file makes new ETags after a deploy; source maps do not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeVersion, hashModules } from "../../functions/src/pages/code-version.js";

let root: string;
let lock: string;
beforeEach(() => {
  const dir = mkdtempSync(join(tmpdir(), "almanac-code-version-"));
  root = join(dir, "lib");
  lock = join(dir, "package-lock.json");
  mkdirSync(join(root, "pages"), { recursive: true });
  writeFileSync(join(root, "pages/ics.js"), "export const a = 1;\n");
  writeFileSync(lock, '{"lockfileVersion":3}');
});
afterEach(() => rmSync(join(root, ".."), { recursive: true, force: true }));

describe("hashModules", () => {
  it("is the same for the same files", async () => {
    expect(await hashModules(root, lock)).toBe(await hashModules(root, lock));
  });

  it("changes with a module's text, a new module and the lock file", async () => {
    const first = await hashModules(root, lock);
    writeFileSync(join(root, "pages/ics.js"), "export const a = 2;\n");
    const edited = await hashModules(root, lock);
    expect(edited).not.toBe(first);
    writeFileSync(join(root, "pages/more.js"), "export {};\n");
    const added = await hashModules(root, lock);
    expect(added).not.toBe(edited);
    writeFileSync(lock, '{"lockfileVersion":3,"packages":{}}');
    expect(await hashModules(root, lock)).not.toBe(added);
  });

  it("leaves source maps out, and runs without a lock file", async () => {
    const first = await hashModules(root, lock);
    writeFileSync(join(root, "pages/ics.js.map"), "{}");
    expect(await hashModules(root, lock)).toBe(first);
    expect(await hashModules(root, join(root, "missing.json"))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

// 43 characters: a sha256 of the code, not the per-process stand-in for unreadable code.
it("hashes the code this process runs, once", async () => {
  const version = codeVersion();
  expect(codeVersion()).toBe(version);
  expect(await version).toMatch(/^[A-Za-z0-9_-]{43}$/);
});
