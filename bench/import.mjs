#!/usr/bin/env node
// An import at the limits (POST /v1/calendars/{id}/import): an iCalendar text of about 2 MB
// holding 5,000 VEVENTs (one-offs timed and all-day, events spanning days, weekly series with
// EXDATEs and moved occurrences, alarms, notes), sent to the local server in a child process
// while /openapi.json is asked every 20 ms on another connection. Reports the import's time,
// the longest the server's event loop was held during it (perf_hooks), and the other
// requests' p99 and slowest answer; then the same for a second, unchanged import.
//   npm run build && node bench/import.mjs        (part of `npm run bench`)
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loopDelayOf, pingEvery, serveLocalServer } from "./loop-delay.mjs";

const EVENTS = Number(process.env.IMPORT_EVENTS ?? 5_000);
const TARGET_BYTES = 2_000_000;

const pad = (n) => String(n).padStart(2, "0");
const day = (i) => {
  const d = new Date(Date.UTC(2027, 0, 1) + (i % 700) * 86_400_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
};

/** One VEVENT (or a series with its overrides) of kind i % 5, with notes to reach the target size. */
function component(i, notes) {
  const head = [`UID:bench-${i}@import.example`, "DTSTAMP:20261101T000000Z", `SUMMARY:Imported event ${i}`];
  const body = [`DESCRIPTION:${notes}`, `CATEGORIES:c${i % 7}`];
  const alarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Soon", "TRIGGER:-PT15M", "END:VALARM"];
  switch (i % 5) {
    case 0:
      return [
        [...head, `DTSTART;TZID=Europe/Berlin:${day(i)}T0930${pad(i % 60)}`, "DURATION:PT45M", ...body, ...alarm],
      ];
    case 1:
      return [[...head, `DTSTART;VALUE=DATE:${day(i)}`, ...body]];
    case 2:
      return [[...head, `DTSTART;VALUE=DATE:${day(i)}`, `DTEND;VALUE=DATE:${day(i + 3)}`, ...body]];
    case 3:
      return [[...head, `DTSTART:${day(i)}T1400${pad(i % 60)}Z`, `DTEND:${day(i)}T1530${pad(i % 60)}Z`, ...body]];
    default: {
      // A start that leaves room for the series' 20 weeks within day()'s 700 days.
      const week = (i - (i % 7)) % 560;
      const start = day(week);
      const series = [
        ...head,
        `DTSTART;TZID=Europe/Berlin:${start}T080000`,
        `DTEND;TZID=Europe/Berlin:${start}T083000`,
        "RRULE:FREQ=WEEKLY;COUNT=20",
        `EXDATE;TZID=Europe/Berlin:${day(week + 14)}T080000`,
        ...body,
        ...alarm,
      ];
      const moved = [
        `UID:bench-${i}@import.example`,
        "DTSTAMP:20261101T000000Z",
        `RECURRENCE-ID;TZID=Europe/Berlin:${day(week + 21)}T080000`,
        `DTSTART;TZID=Europe/Berlin:${day(week + 22)}T100000`,
        `DTEND;TZID=Europe/Berlin:${day(week + 22)}T103000`,
        `SUMMARY:Imported event ${i} (moved)`,
      ];
      return [series, moved];
    }
  }
}

/** A VCALENDAR of `EVENTS` events of about TARGET_BYTES (notes make up the rest), folded at 75 octets. */
export function bigCalendar() {
  const bare = calendarWith("");
  const described = bare.split("\r\nCATEGORIES:").length - 1; // one per event with notes
  return calendarWith("x".repeat(Math.max(0, Math.floor((TARGET_BYTES - bare.length) / described))));
}

function calendarWith(notes) {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Almanac//import bench//EN"];
  // EVENTS components in all, a series' moved occurrence counted as one.
  for (let i = 0, written = 0; written < EVENTS; i++) {
    for (const event of component(i, notes).slice(0, EVENTS - written)) {
      lines.push("BEGIN:VEVENT", ...event, "END:VEVENT");
      written++;
    }
  }
  lines.push("END:VCALENDAR");
  return `${lines.flatMap(fold).join("\r\n")}\r\n`;
}

const fold = (line) => {
  const parts = [];
  for (let at = 0; at < line.length; at += at === 0 ? 75 : 74)
    parts.push((at === 0 ? "" : " ") + line.slice(at, at === 0 ? 75 : at + 74));
  return parts;
};

export async function benchImport() {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-import-bench-"));
  const child = fork(fileURLToPath(import.meta.url), ["server"], {
    env: { ...process.env, DATA_DIR: dataDir, RATE_LIMITS: "off" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const loopMaxMs = loopDelayOf(child);
  try {
    const { origin } = await new Promise((done, fail) => {
      child.once("message", done);
      child.once("exit", (code) => fail(new Error(`server exited with ${code}`)));
    });
    const minted = await (
      await fetch(`${origin}/v1/mint`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "bench-mint" },
        body: JSON.stringify({ name: "Importer" }),
      })
    ).json();
    if (!minted.token) throw new Error(`mint: ${JSON.stringify(minted)}`);
    const calendar = await (
      await fetch(`${origin}/v1/calendars`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "idempotency-key": "bench-calendar",
          authorization: `Bearer ${minted.token}`,
        },
        body: JSON.stringify({ name: "Imported", timezone: "Europe/Berlin" }),
      })
    ).json();
    const text = bigCalendar();
    const importOnce = async (key) => {
      await loopMaxMs();
      const pings = pingEvery(`${origin}/openapi.json`, 20);
      const started = performance.now();
      const res = await fetch(`${origin}/v1/calendars/${calendar.id}/import`, {
        method: "POST",
        headers: {
          "content-type": "text/calendar",
          "idempotency-key": key,
          authorization: `Bearer ${minted.token}`,
        },
        body: text,
      });
      const answer = await res.json();
      const ms = Math.round(performance.now() - started);
      const others = await pings.stop();
      if (res.status !== 200) throw new Error(`import answered ${res.status}: ${JSON.stringify(answer)}`);
      return { ms, answer, loop_max_ms: await loopMaxMs(), others };
    };
    const first = await importOnce("bench-import-1");
    const second = await importOnce("bench-import-2");
    return {
      bytes: Buffer.byteLength(text),
      events: EVENTS,
      first: summary(first),
      again: summary(second),
    };
  } finally {
    child.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const summary = ({ ms, answer, loop_max_ms, others }) => ({
  ms,
  created: answer.created,
  updated: answer.updated,
  unchanged: answer.unchanged,
  skipped: answer.skipped.length,
  loop_max_ms,
  others_p99_ms: others.p99,
  others_max_ms: others.max,
  others_answered: others.count,
});

// Last, once every declaration above is initialized.
if (process.argv[2] === "server") await serveLocalServer();
else if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchImport());
