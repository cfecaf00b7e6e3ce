/**
 * One process's alarm ticks, for test/api/alarm-two-processes.test.ts (bundled by it with
 * esbuild and run with node): the Firestore adapter on FIRESTORE_EMULATOR_HOST, project
 * GCLOUD_PROJECT. It says `ready` once its client has reached the store, waits for a line on
 * stdin, ticks (jobs/alarms.ts) at ALARM_TICK_AT until a tick leaves nothing to do, then prints
 * its totals as JSON. A tick that throws is run again, as Cloud Scheduler runs a failed job again
 * (counted in `failed`, its error on stderr; the test expects none).
 */
import { once } from "node:events";
import { readConfig } from "../../functions/src/config.js";
import { runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";

const now = new Date(process.env.ALARM_TICK_AT ?? "");
if (Number.isNaN(now.getTime())) throw new Error("ALARM_TICK_AT must be an instant");

// A process of its own: its configuration from its environment, as a composition root reads it.
const config = readConfig(process.env);
const store = FirestoreStore.onDefaultApp(LAYOUT, config.projectId);
const deps = { store, clock: () => now, log: () => {}, config };
// Connected before the start: both processes then begin their first query together.
await store.query(paths.alarmQueue(), { limit: 1 });
process.stdout.write("ready\n");
await once(process.stdin, "data");

const MAX_FAILED = 20;
const totals = { ticks: 0, due: 0, fired: 0, failed: 0 };
for (;;) {
  let result;
  try {
    result = await runAlarmTick(deps, { now });
  } catch (err) {
    totals.failed += 1;
    console.error(`tick failed (${totals.failed}): ${String(err).split("\n")[0]}`);
    if (totals.failed >= MAX_FAILED) throw err;
    continue;
  }
  totals.ticks += 1;
  totals.due += result.due;
  totals.fired += result.fired;
  if (!result.more) break;
}
process.stdout.write(`${JSON.stringify(totals)}\n`);
// A failed tick may leave transactions of its batch running: end as a function instance ends,
// without waiting for them (closing the client under them would throw).
process.exit(0);
