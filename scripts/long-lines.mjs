#!/usr/bin/env node
// Lines longer than a limit (140 by default) once Prettier has formatted the file. Prettier
// wraps code at printWidth (.prettierrc.json) but cannot break a long string, template or
// comment: those are left for a person to split, and this lists them.
//
//   node scripts/long-lines.mjs          file:line: length, for every line over 140; exit 1 if any
//   node scripts/long-lines.mjs 120      the same with another limit
//
// It formats in memory and writes nothing, so it answers the same before and after `npm run format`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";

const ROOT = join(import.meta.dirname, "..");
const LIMIT = Number(process.argv[2] ?? 140);
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Tracked and untracked files that git does not ignore. */
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => CODE.test(file));

const ignorePath = [join(ROOT, ".gitignore"), join(ROOT, ".prettierignore")];
const long = [];
for (const file of files) {
  const path = join(ROOT, file);
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  const info = await prettier.getFileInfo(path, { ignorePath });
  if (info.ignored || !info.inferredParser) continue;
  const options = await prettier.resolveConfig(path);
  const formatted = await prettier.format(text, { ...options, filepath: path });
  formatted.split("\n").forEach((line, i) => {
    if (line.length > LIMIT) long.push({ file, line: i + 1, length: line.length });
  });
}

long.sort((a, b) => b.length - a.length);
for (const { file, line, length } of long) console.log(`${file}:${line}: ${length}`);
console.log(`${long.length} line(s) over ${LIMIT} characters after formatting`);
process.exitCode = long.length > 0 ? 1 : 0;
