// Benchmark: the first and a later page of GET .../occurrences (limit 1,000) over a year on
// the host of issue 9: 20 layers × 1,000 daily series, 7.3 million occurrences in the range.
// Measures the domain's pager on records in memory (no store, no HTTP), so the figure is the
// expansion's own cost. Uses the BUILT module (npm run build first). Run directly to print
// JSON, or import benchOccurrencePages() from a bench runner.
import { pathToFileURL } from "node:url";

const MODULE_URL = new URL("../functions/lib/domain/queries/occurrences.js", import.meta.url).href;

const LAYERS = 20;
const SERIES = 1000;
const LIMIT = 1000;
const FROM = "2026-01-01";
const TO = "2026-12-31";
const WARMUP = 3;
const RUNS = 15;

const pad = (n) => String(n).padStart(2, "0");

function calendar(id, timezone) {
  return {
    id,
    name: id,
    slug: id,
    timezone,
    visibility: "public",
    purpose: null,
    default_view: null,
    views: null,
    created_at: "2025-01-01T00:00:00.000Z",
    updated_at: "2025-01-01T00:00:00.000Z",
    revision: "r",
  };
}

function buildSources() {
  const zones = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"];
  const sources = [{ layer: "main", calendar: calendar("cal_host", "UTC"), events: [], exceptions: [] }];
  for (let l = 0; l < LAYERS; l++) {
    const cal = calendar(`cal_l${l}`, zones[l % zones.length]);
    const events = [];
    for (let i = 0; i < SERIES; i++) {
      const timed = i % 7 !== 0;
      events.push({
        id: `evt_${l}_${i}`,
        calendar_id: cal.id,
        kind: "recurring",
        name: `Series ${l}.${i}`,
        date: null,
        recur: { type: "daily", starts: "2026-01-01" },
        start_time: timed ? `${pad(i % 24)}:${pad((i * 7) % 60)}` : null,
        end_time: timed ? `${pad((i + 1) % 24)}:${pad((i * 7) % 60)}` : null,
        category: null,
        notes: null,
        art: null,
        created_by: { id: "agt_bench", name: "Bench" },
        created_at: `2025-12-01T00:00:${pad(i % 60)}.000Z`,
        updated_at: "2025-12-01T00:00:00.000Z",
      });
    }
    sources.push({ layer: `l${l}`, calendar: cal, events, exceptions: [] });
  }
  return sources;
}

function median(fn) {
  for (let i = 0; i < WARMUP; i++) fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(((times[(RUNS - 1) >> 1] + times[RUNS >> 1]) / 2) * 100) / 100;
}

export async function benchOccurrencePages() {
  const { pageOccurrences } = await import(MODULE_URL);
  const sources = buildSources();
  const first = pageOccurrences(sources, { from: FROM, to: TO, limit: LIMIT });
  if (first.occurrences.length !== LIMIT || first.nextCursor === null) throw new Error("the first page is not full");
  // A later page: the second of a range that starts in July, through its cursor.
  const july = { from: "2026-07-01", to: TO, limit: LIMIT };
  const cursor = pageOccurrences(sources, july).nextCursor;
  const firstMs = median(() => pageOccurrences(sources, { from: FROM, to: TO, limit: LIMIT }));
  const laterMs = median(() => pageOccurrences(sources, { ...july, cursor }));
  return {
    name: "occurrence pages",
    layers: LAYERS,
    series_per_layer: SERIES,
    days: 365,
    limit: LIMIT,
    first_page_median_ms: firstMs,
    later_page_median_ms: laterMs,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await benchOccurrencePages()));
}
