/**
 * VTIMEZONE builder: the components are read back independently (RRULEs expanded by
 * rrule-temporal, not by our code) and the offset they give at many instants must equal
 * what luxon (Intl's IANA data) says.
 */
import { IANAZone } from "luxon";
import { RRuleTemporal } from "rrule-temporal";
import { describe, expect, it } from "vitest";
import { buildVTimezone, formatOffset } from "../../functions/src/pages/vtimezone.js";

interface Onset {
  at: number;
  to: number;
}

const DAY = 86_400_000;

function parseOffset(text: string): number {
  const m = /^([+-])(\d{2})(\d{2})(\d{2})?$/.exec(text);
  if (!m) throw new Error(`bad offset ${text}`);
  const minutes = Number(m[2]) * 60 + Number(m[3]) + Number(m[4] ?? 0) / 60;
  return m[1] === "-" ? -minutes : minutes;
}

/** "20260329T020000" read as if it were UTC. */
function stampMs(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(stamp);
  if (!m) throw new Error(`bad stamp ${stamp}`);
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/** Every onset of every observance up to `untilMs`, as UTC instants with the offset they start. */
function onsetsOf(vtimezone: string, untilMs: number): Onset[] {
  const onsets: Onset[] = [];
  const blocks = vtimezone
    .split(/\r\n/)
    .join("\n")
    .split(/BEGIN:(?:STANDARD|DAYLIGHT)\n/)
    .slice(1);
  for (const block of blocks) {
    const prop = (name: string) =>
      block
        .split("\n")
        .filter((l) => l.startsWith(`${name}:`))
        .map((l) => l.slice(name.length + 1));
    const dtstart = prop("DTSTART")[0];
    const from = parseOffset(prop("TZOFFSETFROM")[0]);
    const to = parseOffset(prop("TZOFFSETTO")[0]);
    const locals = [stampMs(dtstart), ...prop("RDATE").map(stampMs)];
    const [rrule] = prop("RRULE");
    if (rrule) {
      const rule = new RRuleTemporal({ rruleString: `DTSTART;TZID=UTC:${dtstart}\nRRULE:${rrule}` });
      const upTo = new Date(untilMs + 2 * DAY);
      for (const z of rule.between(new Date(stampMs(dtstart)), upTo, true)) locals.push(z.epochMilliseconds);
    }
    for (const local of new Set(locals)) onsets.push({ at: local - Math.round(from * 60) * 1000, to });
  }
  return onsets.sort((a, b) => a.at - b.at);
}

function offsetFromComponents(onsets: Onset[], at: number): number | undefined {
  let offset: number | undefined;
  for (const o of onsets) {
    if (o.at > at) break;
    offset = o.to;
  }
  return offset;
}

/** Compares the VTIMEZONE with luxon every ~2 days and one second around each real change. */
function expectMatchesLuxon(zone: string, fromYear: number, toYear: number, checkUntilYear: number): void {
  const text = buildVTimezone(zone, fromYear, toYear);
  const end = Date.UTC(checkUntilYear + 1, 0, 1);
  const onsets = onsetsOf(text, end);
  const tz = IANAZone.create(zone);
  const start = Date.UTC(fromYear, 0, 1, 14); // after local midnight of Jan 1 in every zone
  const samples: number[] = [];
  for (let t = start; t < end; t += 2 * DAY + 3 * 3_600_000) samples.push(t);
  // Around each real change (daily probes, then bisection to the second): just before and at it.
  for (let t = start; t + DAY < end; t += DAY) {
    if (tz.offset(t) === tz.offset(t + DAY)) continue;
    let lo = t / 1000;
    let hi = (t + DAY) / 1000;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (tz.offset(mid * 1000) === tz.offset(t)) lo = mid;
      else hi = mid;
    }
    samples.push(lo * 1000, hi * 1000, hi * 1000 + 3_600_000);
  }
  const mismatches = samples
    .map((t) => ({ at: new Date(t).toISOString(), expected: tz.offset(t), got: offsetFromComponents(onsets, t) }))
    .filter((s) => s.got !== s.expected);
  expect(mismatches.slice(0, 5)).toEqual([]);
}

describe("buildVTimezone", () => {
  it("writes Europe/Berlin with the EU rule as yearly RRULEs", () => {
    const text = buildVTimezone("Europe/Berlin", 2026, 2026);
    expect(text.startsWith("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n")).toBe(true);
    expect(text.endsWith("END:VTIMEZONE")).toBe(true);
    expect(text).toContain(
      [
        "BEGIN:DAYLIGHT",
        "DTSTART:20260329T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "END:DAYLIGHT",
      ].join("\r\n"),
    );
    expect(text).toContain(
      [
        "BEGIN:STANDARD",
        "DTSTART:20261025T030000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "END:STANDARD",
      ].join("\r\n"),
    );
  });

  it("writes the US rule as the second and first Sunday", () => {
    const text = buildVTimezone("America/New_York", 2026, 2026);
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU");
    expect(text).toContain("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU");
  });

  it("writes a zone without changes as one standard observance", () => {
    expect(buildVTimezone("Asia/Kolkata", 2026, 2026)).toBe(
      [
        "BEGIN:VTIMEZONE",
        "TZID:Asia/Kolkata",
        "BEGIN:STANDARD",
        "DTSTART:20260101T000000",
        "TZOFFSETFROM:+0530",
        "TZOFFSETTO:+0530",
        "END:STANDARD",
        "END:VTIMEZONE",
      ].join("\r\n"),
    );
  });

  it.each([
    ["Europe/Berlin", 2026, 2026, 2060],
    ["America/New_York", 2000, 2026, 2060], // the 2007 US rule change: old rule listed, new one recurring
    ["Australia/Sydney", 2026, 2027, 2050], // southern hemisphere: daylight time spans the new year
    ["Australia/Lord_Howe", 2026, 2026, 2040], // a 30-minute daylight shift
    ["Pacific/Chatham", 2026, 2026, 2040], // offsets of 12:45 and 13:45
    ["Europe/Dublin", 2026, 2026, 2040], // negative DST in tzdb
    ["America/Sao_Paulo", 2015, 2022, 2040], // daylight time abolished in 2019
    ["Asia/Tehran", 2018, 2026, 2040], // fixed-date changes, abolished in 2022
    ["Africa/Casablanca", 2024, 2026, 2038], // Ramadan-based changes: listed one by one
    ["America/Santiago", 2026, 2026, 2060], // "first Sunday on or after the 2nd"
    ["UTC", 2026, 2026, 2040],
    ["Etc/GMT+5", 2026, 2026, 2030],
  ])("%s (%i..%i) gives luxon's offset at every instant through %i", (zone, from, to, until) => {
    expectMatchesLuxon(zone, from, to, until);
  });

  it("starts no earlier than 1970 and covers the years asked for", () => {
    const text = buildVTimezone("Europe/Paris", 1900, 1971);
    expect(text).toContain("DTSTART:19700101T000000");
    expect(text).not.toContain("DTSTART:1969");
  });

  it("rejects an unknown zone", () => {
    expect(() => buildVTimezone("Mars/Olympus_Mons", 2026, 2026)).toThrow(RangeError);
  });
});

describe("formatOffset", () => {
  it.each([
    [60, "+0100"],
    [-300, "-0500"],
    [330, "+0530"],
    [765, "+1245"],
    [0, "+0000"],
    [-44.5, "-004430"],
  ])("%d minutes -> %s", (minutes, text) => {
    expect(formatOffset(minutes)).toBe(text);
  });
});
