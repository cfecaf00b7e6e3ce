// The free/busy case of the bench (issue 14): GET /v1/freebusy over three private calendars of
// 200 events each, in three zones, for March 2027 (both DST changes of Europe and the US fall
// in it), with the token. bench/run.mjs measures it beside the other cases; `node
// bench/freebusy.mjs` measures it alone (with an adjacent Express baseline), without touching
// bench/results.json. Needs the build, like run.mjs.
//   BENCH_DURATION=10 seconds per case, BENCH_CONNECTIONS=32, BENCH_LIB=<dir> as in run.mjs.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureAlone, startServer } from "./server-process.mjs";

const EVENTS_PER_CALENDAR = 200;
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"];
const RANGE = { from: "2027-03-01", to: "2027-03-31" };
const PARALLEL = 8;
const pad = (n) => String(n).padStart(2, "0");

async function call(origin, method, path, token, body) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${token}`,
      ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`seeding: ${method} ${path} answered ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * 200 events: 60% timed one-off in the month (30 to 90 minutes, some overlapping), 20% weekly
 * timed series, 10% all-day, 10% someday (the last two are never busy).
 */
function calendarEvents(c) {
  return Array.from({ length: EVENTS_PER_CALENDAR }, (_, i) => {
    const event = { name: `Busy ${c}.${i}` };
    const slot = i % 10;
    if (slot < 6) {
      const start = 7 * 60 + ((i * 37) % (11 * 60));
      const end = start + 30 + (i % 3) * 30;
      Object.assign(event, {
        date: `2027-03-${pad(1 + ((i * 7 + c) % 31))}`,
        start_time: `${pad(Math.floor(start / 60))}:${pad(start % 60)}`,
        end_time: `${pad(Math.floor(end / 60))}:${pad(end % 60)}`,
      });
    } else if (slot < 8) {
      Object.assign(event, {
        recur: { type: "weekly", day: 1 + (i % 7), starts: "2027-01-01" },
        start_time: "09:00",
        end_time: "09:30",
      });
    } else if (slot === 8) {
      event.date = `2027-03-${pad(1 + (i % 31))}`;
    }
    return event;
  });
}

/** Seeds three private calendars of the agent; answers the request's URL. */
export async function seedFreeBusy(origin, token) {
  const ids = [];
  for (const [c, timezone] of ZONES.entries()) {
    const calendar = await call(origin, "POST", "/v1/calendars", token, {
      name: `Bench free/busy ${c}`,
      visibility: "private",
      timezone,
    });
    const events = calendarEvents(c);
    for (let i = 0; i < events.length; i += PARALLEL) {
      await Promise.all(
        events.slice(i, i + PARALLEL).map((e) => call(origin, "POST", `/v1/calendars/${calendar.id}/events`, token, e)),
      );
    }
    ids.push(calendar.id);
  }
  return `${origin}/v1/freebusy?calendars=${ids.join(",")}&from=${RANGE.from}&to=${RANGE.to}`;
}

/** Fails loudly unless the request answers busy time for all three calendars. */
export async function expectFreeBusyOk(url, token) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  const entries = Object.values(body.calendars ?? {});
  if (res.status !== 200 || entries.length !== ZONES.length || entries.some((e) => !(e.busy?.length > 0))) {
    throw new Error(`GET /v1/freebusy answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
}

// Alone: `node bench/freebusy.mjs`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.RATE_LIMITS ??= "off";
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-bench-freebusy-"));
  const express = await startServer("express");
  const almanac = await startServer("almanac", { DATA_DIR: dataDir });
  try {
    const minted = await fetch(`${almanac.origin}/v1/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ name: "Bench free/busy" }),
    }).then((res) => res.json());
    const url = await seedFreeBusy(almanac.origin, minted.token);
    await expectFreeBusyOk(url, minted.token);
    const baseline = await measureAlone("express hello", { url: `${express.origin}/` });
    const row = await measureAlone("GET /v1/freebusy", { url, headers: { authorization: `Bearer ${minted.token}` } });
    const share = Math.round((row.requests_per_s / baseline.requests_per_s) * 100);
    console.log(
      `GET /v1/freebusy (3 calendars x 200 events, a month, token): ${row.requests_per_s} req/s, ` +
        `p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms; Express hello then ${baseline.requests_per_s} req/s: ${share}%`,
    );
  } finally {
    await almanac.stop();
    await express.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
