/**
 * vitest's global setup for the Firestore emulator (test/helpers/firestore-emulator.ts): a
 * directory where the first test file that needs the emulator starts it (its pid, host and log
 * go there) and the others find it; at the end of the run, the emulator's process group is
 * stopped and the directory removed. A run without Firestore tests starts nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    firestoreEmulatorDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "almanac-firestore-"));
  project.provide("firestoreEmulatorDir", dir);
  return async () => {
    let pid = 0;
    try {
      pid = Number(readFileSync(join(dir, "pid"), "utf8"));
    } catch {
      // none started
    }
    if (pid) await stopGroup(pid);
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Ends the process group `pid` leads: SIGTERM, then SIGKILL after 5 s. */
async function stopGroup(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const began = Date.now();
  while (alive()) {
    if (Date.now() - began > 5000) {
      process.kill(-pid, "SIGKILL");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
