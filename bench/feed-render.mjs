// Rendering the feed of bench/feed-events.mjs (200 events) in process: buildIcs of the built
// functions/lib (or $BENCH_LIB), median of many runs after a warm-up. Target (issue 15): <= 5 ms.
//   node bench/feed-render.mjs   (after npm run build)
import { FEED_TIMEZONE, feedEvents } from "./feed-events.mjs";

const RUNS = 200;
const WARMUP = 50;
const LIB = process.env.BENCH_LIB ?? new URL("../functions/lib", import.meta.url).pathname;

/** The events as the store holds them (what feeds.ts hands to buildIcs). */
function records() {
  const at = "2026-11-20T10:00:00.000Z";
  return feedEvents().map((e, i) => ({
    id: `evt_bench${String(i).padStart(15, "0")}`,
    calendar_id: "cal_bench",
    kind: e.recur ? "recurring" : "one-off",
    name: e.name,
    date: e.date ?? null,
    recur: e.recur ?? null,
    start_time: e.start_time ?? null,
    end_time: e.end_time ?? null,
    category: e.category ?? null,
    notes: e.notes ?? null,
    created_by: { id: "agt_bench", name: "Bench" },
    created_at: at,
    updated_at: at,
  }));
}

export async function benchFeedRender() {
  const { buildIcs } = await import(`${LIB}/pages/ics.js`);
  const feed = {
    name: "Bench feed",
    description: null,
    url: "https://almanac.example/c/bench-feed",
    uidDomain: "almanac.example",
    sources: [{ layer: "main", timezone: FEED_TIMEZONE, events: records(), exceptions: [] }],
  };
  let bytes = 0;
  for (let i = 0; i < WARMUP; i++) bytes = Buffer.byteLength(buildIcs(feed));
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    buildIcs(feed);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 100) / 100;
  return { events: feed.sources[0].events.length, bytes, median_ms: round(times[RUNS >> 1]), min_ms: round(times[0]) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchFeedRender());
