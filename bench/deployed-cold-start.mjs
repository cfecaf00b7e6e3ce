// Deployed cold start: a fresh process loads the deployed entry (functions/package.json `main`,
// what `firebase deploy` uploads) and serves one function through Express, as the Functions
// framework does, against the Cloud Firestore emulator (FIRESTORE_EMULATOR_HOST, else one started
// here: scripts/firestore-emulator.mjs); from the spawn to the first answer of a
// request that reads the store. Beside it, started the same way in the same run: an Express
// hello wrapped in `onRequest`, the floor of the stack, and the same hello reading one Firestore
// document, the floor of a function that reads the store (firebase-admin, google-gax and
// protobufjs load with the first read). Medians of RUNS interleaved starts.
// FIRESTORE_PREFER_REST=true (what Firebase sets in deployed functions) is passed to every
// process when set here; against an emulator the REST path asks for default credentials.
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
  firestore: serve(`(async () => {
    const req = (name) => require(require.resolve(name, { paths: [${JSON.stringify(FUNCTIONS)}] }));
    const { onRequest } = req("firebase-functions/v2/https");
    const app = express();
    let db;
    app.get("/*all", async (_req, res) => {
      // Loaded with the first request, as the deployed functions load their store.
      db ??= req("firebase-admin/firestore").getFirestore(req("firebase-admin/app").initializeApp());
      const snap = await db.doc("tokens/none").get();
      res.status(snap.exists ? 200 : 404).json({});
    });
    return onRequest(app);
  })()`),
};

/** Each asks something that reads the store: a token's record (401), a slug's (404). */
const REQUESTS = {
  api: { path: "/v1/me", init: { headers: { authorization: `Bearer svc_agent_${"x".repeat(43)}` } } },
  pages: { path: "/c/no-such-calendar", init: {} },
  hello: { path: "/v1/me", init: {} },
  firestore: { path: "/v1/me", init: {} },
};

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

export async function benchDeployedColdStart(runs = RUNS) {
  const emulator = process.env.FIRESTORE_EMULATOR_HOST
    ? { host: process.env.FIRESTORE_EMULATOR_HOST, stop: async () => {} }
    : await startFirestoreEmulator();
  const project = `demo-almanac-cold-${process.pid}`;
  const samples = { api: [], pages: [], hello: [], firestore: [] };
  try {
    for (let i = 0; i < runs; i++) {
      for (const name of Object.keys(PROCESSES)) {
        const port = await freePort();
        const env = {
          PORT: String(port),
          FIRESTORE_EMULATOR_HOST: emulator.host,
          GCLOUD_PROJECT: project,
          ...(process.env.FIRESTORE_PREFER_REST ? { FIRESTORE_PREFER_REST: process.env.FIRESTORE_PREFER_REST } : {}),
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
  const [hello, floor] = [figure("hello"), figure("firestore")];
  const ratio = (f, to) => Math.round((f.ms / to.ms) * 100) / 100;
  const against = (f) => ({ ...f, ratio: ratio(f, hello), firestore_ratio: ratio(f, floor) });
  return {
    entry: ENTRY,
    runs,
    hello,
    firestore_floor: floor,
    api: against(figure("api")),
    pages: against(figure("pages")),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchDeployedColdStart());
