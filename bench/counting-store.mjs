// The tests' CountingStore (test/helpers/counting-store.ts) for the bench scripts: its types
// stripped by esbuild (it imports node:timers only), loaded as a module.
import { readFileSync } from "node:fs";
import { transform } from "esbuild";

export async function countingStore() {
  const source = readFileSync(new URL("../test/helpers/counting-store.ts", import.meta.url), "utf8");
  const { code } = await transform(source, { loader: "ts", format: "esm" });
  return import(`data:text/javascript,${encodeURIComponent(code)}`);
}
