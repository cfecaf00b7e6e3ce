/** A server started in a process of its own, for tests that kill it and start it again. */
import { spawn, type ChildProcess } from "node:child_process";

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs `script` with Node and `env` on `port`, and answers once its /openapi.json does (at most 10 s). */
export async function startServerProcess(
  script: string,
  port: number,
  env: Record<string, string>,
): Promise<ChildProcess> {
  const proc = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 200; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return proc;
    await sleep(50);
  }
  throw new Error("the server did not start");
}
