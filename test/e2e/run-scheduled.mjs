// Runs scheduled functions of the deployed bundle (functions/dist/index.mjs) once each, in the
// order given, as Cloud Scheduler would start them: the Functions emulator does not fire them,
// not even beside a Pub/Sub emulator (docs/e2e.md#the-scheduled-functions). The environment
// points them at the store:
//   FIRESTORE_EMULATOR_HOST=... GCLOUD_PROJECT=... node test/e2e/run-scheduled.mjs alarms webhooks
// Their log entries go to stdout as the functions write them (JSON), then one line per run.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node run-scheduled.mjs <exported function>...");
  process.exit(2);
}
const bundle = await import(pathToFileURL(join(import.meta.dirname, "../../functions/dist/index.mjs")).href);
for (const name of names) {
  const started = performance.now();
  await bundle[name].run({ jobName: name, scheduleTime: new Date().toISOString() });
  console.log(JSON.stringify({ ran: name, ms: Math.round(performance.now() - started) }));
}
// The Firestore client's channel would keep the process alive.
process.exit(0);
