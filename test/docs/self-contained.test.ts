/**
 * The repository explains itself: no file sends its reader to documents a clone does not have,
 * and every `docs/api.md#<anchor>` cited anywhere names a heading of docs/api.md.
 *
 * Files: those git tracks plus new ones it does not ignore (so a file is checked before its
 * first commit), without lockfiles, binary files and this file, which must spell the patterns.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SELF = "test/docs/self-contained.test.ts";
const API_DOC = "docs/api.md";

/** References to the contract's sources outside the repository. */
const OUTSIDE = /\.\.\/shared\b|\bDECISIONS\b|\bSPEC\b/;
/** A citation of a section of docs/api.md (also `api.md#...` links from docs/ itself). */
const CITATION = /\bapi\.md#([A-Za-z0-9_-]+)/g;

interface TextFile {
  path: string;
  text: string;
}

function repositoryFiles(): TextFile[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((path) => path !== "" && path !== SELF && !path.endsWith("package-lock.json"));
  const files: TextFile[] = [];
  for (const path of new Set(listed)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(ROOT, path));
    } catch {
      continue; // tracked but deleted in the work tree
    }
    if (bytes.includes(0)) continue; // binary
    files.push({ path, text: bytes.toString("utf8") });
  }
  return files;
}

/** GitHub's anchors of a Markdown file's headings (outside code fences), duplicates numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const files = repositoryFiles();

describe("the repository is self-contained", () => {
  it("finds the files to check", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => f.path)).toContain(API_DOC);
  });

  it("sends no reader to documents outside the repository", () => {
    const offending = files.flatMap(({ path, text }) =>
      text
        .split("\n")
        .map((line, n) => ({ line, n }))
        .filter(({ line }) => OUTSIDE.test(line))
        .map(({ line, n }) => `${path}:${n + 1}: ${line.trim().slice(0, 120)}`),
    );
    expect(offending, "cite docs/api.md#<section> instead").toEqual([]);
  });

  it("cites only sections that docs/api.md has", () => {
    const anchors = headingAnchors(readFileSync(join(ROOT, API_DOC), "utf8"));
    const broken: string[] = [];
    let cited = 0;
    for (const { path, text } of files) {
      for (const [, anchor] of text.matchAll(CITATION)) {
        cited += 1;
        if (!anchors.has(anchor)) broken.push(`${path}: api.md#${anchor}`);
      }
      if (path === API_DOC) {
        for (const [, anchor] of text.matchAll(/\]\(#([A-Za-z0-9_-]+)\)/g))
          if (!anchors.has(anchor)) broken.push(`${path}: #${anchor}`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(broken, `headings of ${API_DOC}: ${[...anchors].join(", ")}`).toEqual([]);
  });

  it("computes anchors as GitHub does", () => {
    const anchors = headingAnchors("# API notes\n## Free/busy\n```\n# not a heading\n```\n## Paging\n## Paging\n");
    expect([...anchors]).toEqual(["api-notes", "freebusy", "paging", "paging-1"]);
  });
});
