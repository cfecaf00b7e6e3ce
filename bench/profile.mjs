// Profiles the local server under one bench case: `node bench/profile.mjs <case> [seconds]`,
// case = events | me | write | page | feed | mcp | freebusy (BENCH_LIB=<dir> profiles another build). Seeds, then
// records a CPU profile of the load only (node:inspector in the server process), prints the
// functions with the most self time and leaves the .cpuprofile in bench/profiles/ (open it in
// Chrome DevTools or speedscope).
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { seedFreeBusy } from "./freebusy.mjs";
import { mcpListOccurrences } from "./mcp.mjs";
import { seed } from "./seed.mjs";

// As bench/run.mjs: the service, not its rate limits (the seeding alone writes 900 events).
process.env.RATE_LIMITS ??= "off";
const HERE = fileURLToPath(new URL(".", import.meta.url));
const [name = "events", seconds = "8"] = process.argv.slice(2);
const profileDir = join(HERE, "profiles");
mkdirSync(profileDir, { recursive: true });

const dataDir = mkdtempSync(join(tmpdir(), "almanac-profile-"));
const child = fork(join(HERE, "servers.mjs"), ["almanac"], {
  env: { ...process.env, DATA_DIR: dataDir },
});
const reply = (key) => new Promise((done) => child.on("message", (m) => m[key] !== undefined && done(m[key])));
const port = await new Promise((done) => child.once("message", (m) => done(m.port)));
const origin = `http://127.0.0.1:${port}`;
const data = await seed(origin);
const auth = { authorization: `Bearer ${data.token}` };
const writePath = `/v1/calendars/${data.writeCalendarId}/events`;
const cases = {
  events: { url: `${origin}/v1/calendars/${data.readCalendarId}/events` },
  me: { url: `${origin}/v1/me`, headers: auth },
  page: { url: `${origin}/c/${data.pageSlug}?view=month&date=${data.pageDate}` },
  feed: { url: `${origin}/c/${data.feedSlug}.ics` },
  mcp: mcpListOccurrences(origin, data),
  ...(name === "freebusy" ? { freebusy: { url: await seedFreeBusy(origin, data.token), headers: auth } } : {}),
  write: {
    url: origin,
    requests: [
      {
        method: "POST",
        path: writePath,
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "Load test", date: "2027-05-04" }),
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
      },
    ],
  },
};
if (!cases[name]) throw new Error(`unknown case ${name}: use ${Object.keys(cases).join(", ")}`);
await autocannon({ ...cases[name], connections: 32, duration: 2 }); // warm-up
const profiling = reply("profiling");
child.send({ profile: "start" });
await profiling;
const result = await autocannon({ ...cases[name], connections: 32, duration: Number(seconds) });
const file = `${name}-${Date.now()}.cpuprofile`;
const profiled = reply("profiled");
child.send({ profile: "stop", file: join(profileDir, file) });
await profiled;
console.log(
  `${name}: ${Math.round(result.requests.average)} req/s, ` +
    `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
);
await new Promise((done) => {
  child.once("exit", done);
  child.kill("SIGTERM");
});
rmSync(dataDir, { recursive: true, force: true });

const profile = JSON.parse(readFileSync(join(profileDir, file), "utf8"));
const self = new Map();
const total = profile.samples.length;
const hits = new Map(profile.nodes.map((n) => [n.id, 0]));
for (const id of profile.samples) hits.set(id, hits.get(id) + 1);
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|functions)\//, "$1/")}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + hits.get(node.id));
}
console.log(`\nself time, top 30 of ${total} samples (bench/profiles/${file}):`);
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
  console.log(`${((n / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
