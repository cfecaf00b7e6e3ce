// The script `firebase emulators:exec` runs once the emulators are up: it tells the test so
// (a `ready` file in the directory given), then keeps the emulators running until the test
// writes `done` there. Exits 1 after the time limit, so a stuck run still ends.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const limitMs = Number(process.argv[3] ?? 300_000);
if (!dir) {
  console.error("usage: node hold-emulators.mjs <signal dir> [time limit ms]");
  process.exit(2);
}
writeFileSync(join(dir, "ready"), String(process.pid));
const started = Date.now();
const timer = setInterval(() => {
  if (existsSync(join(dir, "done"))) {
    clearInterval(timer);
    process.exit(0);
  }
  if (Date.now() - started > limitMs) {
    console.error(`hold-emulators: no "done" after ${limitMs} ms, stopping`);
    process.exit(1);
  }
}, 200);
