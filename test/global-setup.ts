import { execFileSync } from "node:child_process";
import { resolve } from "node:path";

/** Tests that start the server in a child process run the built JavaScript: build it once, first. */
export default function buildOnce(): void {
  execFileSync("npm", ["run", "build"], { cwd: resolve(import.meta.dirname, ".."), stdio: "inherit" });
}
