// Benchmark: expand 1,000 varied recurring rules over 366 days.
// Uses the BUILT module (npm run build first). Run directly to print JSON, or import
// benchOccurrences() from a bench runner.
import { pathToFileURL } from "node:url";

const MODULE_URL = process.env.RECURRENCE_MODULE
  ? pathToFileURL(process.env.RECURRENCE_MODULE).href
  : new URL("../functions/lib/domain/recurrence/index.js", import.meta.url).href;

const EVENTS = 1000;
const DAYS = 366;
const WARMUP = 5;
const RUNS = 20;
const FROM = "2026-01-01";
const DEFAULT_STARTS = "2025-06-15";

/** Deterministic mix of every rule type, intervals 1..4, day edges, some starts/until. */
function buildRules() {
  const rules = [];
  let seed = 42;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pad = (n) => String(n).padStart(2, "0");
  for (let i = 0; i < EVENTS; i++) {
    const type = ["daily", "weekly", "weekly", "monthly", "monthly", "yearly"][i % 6];
    const r = { type };
    if (type === "weekly") r.day = rand(8);
    if (type === "monthly") r.day = [-1, 1, 15, 29, 30, 31][rand(6)];
    if (type === "yearly") {
      r.month = 1 + rand(12);
      r.day = r.month === 2 ? 1 + rand(29) : 1 + rand(28);
    }
    if (rand(2)) r.interval = 1 + rand(4);
    if (rand(3) === 0) r.starts = `2025-${pad(1 + rand(12))}-${pad(1 + rand(28))}`;
    if (rand(4) === 0) r.until = `2026-${pad(1 + rand(12))}-${pad(1 + rand(28))}`;
    rules.push(r);
  }
  return rules;
}

export async function benchOccurrences() {
  const { expandRecurrence, addDays } = await import(MODULE_URL);
  const rules = buildRules();
  const to = addDays(FROM, DAYS - 1); // inclusive range of exactly DAYS days
  let sink = 0;
  const once = () => {
    const t0 = performance.now();
    for (const r of rules) sink += expandRecurrence(r, DEFAULT_STARTS, FROM, to).length;
    return performance.now() - t0;
  };
  for (let i = 0; i < WARMUP; i++) once();
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(once());
  times.sort((a, b) => a - b);
  const median = (times[(RUNS - 1) >> 1] + times[RUNS >> 1]) / 2;
  if (sink === 0) throw new Error("no occurrences expanded");
  return { name: "occurrences", median_ms: Math.round(median * 100) / 100, events: EVENTS, days: DAYS };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchOccurrences()));
}
