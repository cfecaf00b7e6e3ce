// Deployed cold start: a fresh process loads the deployed entry (functions/package.json `main`,
// what `firebase deploy` uploads) and serves one function through Express, as the Functions
// framework does, against the Cloud Firestore emulator (FIRESTORE_EMULATOR_HOST, else one started
// here: scripts/firestore-emulator.mjs); from the spawn to the first answer of a
// request that reads the store. Beside it, started the same way in the same run: an Express
// hello wrapped in `onRequest`, the floor of the stack. Medians of RUNS interleaved starts.
//   node bench/deployed-cold-start.mjs   (after npm run build; DEPLOYED_ENTRY=<file> for another build)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clearProject, startFirestoreEmulator } from "../scripts/firestore-emulator.mjs";
import { freePort, timeToFirstAnswer } from "./cold-start.mjs";

const RUNS = Number(process.env.RUNS ?? 7);
const FUNCTIONS = new URL("../functions", import.meta.url).pathname;
const ENTRY =
  process.env.DEPLOYED_ENTRY ?? join(FUNCTIONS, JSON.parse(readFileSync(join(FUNCTIONS, "package.json"))).main);

/** What the Functions framework does with an HTTPS function: an Express app that hands it every request. */
const serve = (load) => `
const express = require(require.resolve("express", { paths: [${JSON.stringify(FUNCTIONS)}] }));
(async () => {
  const fn = await ${load};
  express().all("/*all", (req, res) => fn(req, res)).listen(Number(process.env.PORT), "127.0.0.1");
})();`;

const PROCESSES = {
  api: serve(`import(${JSON.stringify(ENTRY)}).then((m) => m.api)`),
  pages: serve(`import(${JSON.stringify(ENTRY)}).then((m) => m.pages)`),
  hello: serve(`(async () => {
    const { onRequest } = require(require.resolve("firebase-functions/v2/https", { paths: [${JSON.stringify(FUNCTIONS)}] }));
    const app = express();
    app.get("/*all", (_req, res) => res.status(404).json({}));
    return onRequest(app);
  })()`),
};

/** Each asks something that reads the store: a token's record (401), a slug's (404). */
const REQUESTS = {
  api: { path: "/v1/me", init: { headers: { authorization: `Bearer svc_agent_${"x".repeat(43)}` } } },
  pages: { path: "/c/no-such-calendar", init: {} },
  hello: { path: "/v1/me", init: {} },
};

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function benchDeployedColdStart(runs = RUNS) {
  const emulator = process.env.FIRESTORE_EMULATOR_HOST
    ? { host: process.env.FIRESTORE_EMULATOR_HOST, stop: async () => {} }
    : await startFirestoreEmulator();
  const project = `demo-almanac-cold-${process.pid}`;
  const samples = { api: [], pages: [], hello: [] };
  try {
    for (let i = 0; i < runs; i++) {
      for (const name of Object.keys(PROCESSES)) {
        const port = await freePort();
        const env = {
          PORT: String(port),
          FIRESTORE_EMULATOR_HOST: emulator.host,
          GCLOUD_PROJECT: project,
        };
        const { path, init } = REQUESTS[name];
        const answer = await timeToFirstAnswer(
          process.execPath,
          ["-e", PROCESSES[name]],
          env,
          `http://127.0.0.1:${port}${path}`,
          init,
        );
        if (answer.status >= 500) throw new Error(`${name} answered ${answer.status}: ${answer.stderr.slice(0, 500)}`);
        samples[name].push(answer);
      }
    }
  } finally {
    await clearProject(emulator.host, project);
    await emulator.stop();
  }
  const figure = (name) => ({
    ms: Math.round(median(samples[name].map((s) => s.ms))),
    cpu_ms: median(samples[name].map((s) => s.cpu_ms)),
    rss_mb: median(samples[name].map((s) => s.rss_mb)),
  });
  const hello = figure("hello");
  const ratio = (f) => Math.round((f.ms / hello.ms) * 100) / 100;
  const [api, pages] = [figure("api"), figure("pages")];
  return { entry: ENTRY, runs, hello, api: { ...api, ratio: ratio(api) }, pages: { ...pages, ratio: ratio(pages) } };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchDeployedColdStart());
