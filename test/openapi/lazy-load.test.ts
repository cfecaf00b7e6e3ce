import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../functions/src");

/** Files and packages reachable from `entry` through static imports (type-only imports excluded). */
function staticImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)[^"'();]*?from\s+["']([^"']+)["']/gm,
    )) {
      if (specifier.startsWith(".")) visit(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else packages.add(specifier);
    }
  };
  visit(join(SRC, entry));
  return { files, packages };
}

describe("the OpenAPI generator costs nothing until /openapi.json is asked for", () => {
  it("is not among the static imports of the API app", () => {
    const { files, packages } = staticImports("app.ts");
    expect(files.has(join(SRC, "routes/index.ts"))).toBe(true); // the walk does follow the app's imports
    expect([...packages].filter((p) => p.startsWith("@asteasolutions/"))).toEqual([]);
    expect(files.has(join(SRC, "openapi/generate.ts"))).toBe(false);
  });

  it("is imported dynamically by the /openapi.json route", () => {
    const route = readFileSync(join(SRC, "openapi/route.ts"), "utf8");
    expect(route).toMatch(/await import\("\.\/generate\.js"\)|import\("\.\/generate\.js"\)/);
    expect(staticImports("openapi/generate.ts").packages.has("@asteasolutions/zod-to-openapi")).toBe(true);
  });
});
