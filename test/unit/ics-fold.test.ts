/**
 * ics-fold.ts writes exactly what ical-generator's own folding writes: `foldIcsLines` against
 * `foldLines`, and `calendarText` against `calendar.toString()`, byte for byte, on Unicode of
 * every width (ASCII, Latin, CJK, emoji, combining marks, lone surrogates) and long lines.
 */
import fc from "fast-check";
import ical, { foldLines } from "ical-generator";
import { describe, expect, it } from "vitest";
import { calendarText, foldIcsLines } from "../../functions/src/pages/ics-fold.js";

const EMOJI = "😀👩‍👩‍👧‍👦🇩🇪"; // surrogate pairs, ZWJ sequences, regional indicators
const CJK = "会議の議題と日程について話し合います";
const COMBINING = "e\u0301a\u0308o\u0302\u0323"; // é ä ộ as base letters and combining marks
const LATIN = "Ünïcödé ñ ß ø å";

const SAMPLES = [
  "",
  "SUMMARY:short",
  `DESCRIPTION:${"a".repeat(73)}`,
  `DESCRIPTION:${"a".repeat(62)}`, // exactly 74 octets
  `DESCRIPTION:${"a".repeat(63)}`, // 75: one fold
  `DESCRIPTION:${"a".repeat(500)}`,
  `SUMMARY:${CJK.repeat(6)}`,
  `SUMMARY:${EMOJI.repeat(12)}`,
  `SUMMARY:${COMBINING.repeat(20)}`,
  `SUMMARY:${LATIN.repeat(10)}`,
  `DESCRIPTION:${"x".repeat(60)}${CJK}`, // a 3-octet character across the boundary
  `DESCRIPTION:${"x".repeat(61)}${EMOJI}`, // a 4-octet character across the boundary
  `DESCRIPTION:${"x".repeat(70)}é${"y".repeat(100)}`,
  `X-LONE:${"\ud83d".repeat(30)}${"\ude00".repeat(30)}a\ud83d`, // lone high and low surrogates, one at the end
  `X-ODD:\ud83da\ud83d\ud83d\ude00${"b".repeat(80)}`, // a high surrogate before a non-low unit
  `LINES:one\ntwo\rthree${"z".repeat(90)}`, // a lone LF or CR is not a line break
  ["BEGIN:VEVENT", `SUMMARY:${CJK.repeat(4)}`, `DESCRIPTION:${EMOJI}${"q".repeat(120)}`, "END:VEVENT", ""].join("\r\n"),
];

/** Units that exercise every width and the surrogate corner cases, with line breaks among them. */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("a", "Z", "0", " ", ";", ":", "\\", ",") },
  { weight: 2, arbitrary: fc.constantFrom(...[...LATIN], ...[...COMBINING]) },
  { weight: 2, arbitrary: fc.constantFrom(...[...CJK]) },
  { weight: 2, arbitrary: fc.constantFrom(...[...EMOJI]) },
  { weight: 1, arbitrary: fc.constantFrom("\ud83d", "\ude00", "\r\n", "\n", "\r") },
);

describe("foldIcsLines", () => {
  it("folds the samples exactly as ical-generator's foldLines", () => {
    for (const sample of SAMPLES) expect(foldIcsLines(sample)).toBe(foldLines(sample));
  });

  it("folds any mix of widths, surrogates and line breaks exactly as foldLines", () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }), (units) => {
        const text = units.join("");
        expect(foldIcsLines(text)).toBe(foldLines(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("never writes a line over 75 octets nor splits a character's UTF-8 sequence", () => {
    // Lone surrogates have no UTF-8 of their own (they are written as U+FFFD): left out here.
    for (const sample of SAMPLES.filter((s) => !/\p{Cs}/u.test(s))) {
      const folded = foldIcsLines(sample);
      for (const line of folded.split("\r\n")) {
        expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
        // A piece cut inside a sequence would not survive a round trip through UTF-8.
        expect(Buffer.from(line).toString("utf8")).toBe(line);
      }
      expect(folded.replaceAll("\r\n ", "")).toBe(sample);
    }
  });
});

describe("calendarText", () => {
  const zone = (name: string) =>
    ["BEGIN:VTIMEZONE", `TZID:${name}`, `X-LIC-LOCATION:${name}${"_".repeat(80)}`, "END:VTIMEZONE"].join("\r\n");

  const calendar = (summaries: string[]) => {
    const cal = ical({
      prodId: { company: "almanac", product: "feeds", language: "EN" },
      name: `Plan ${CJK}`,
      description: `${EMOJI} ${"d".repeat(90)}`,
      url: "https://almanac.test/c/plan",
      timezone: { name: null, generator: zone },
    });
    cal.x([["X-CALENDAR-AFTER", `${COMBINING.repeat(30)}`]]);
    summaries.forEach((summary, i) =>
      cal.createEvent({
        id: `evt_${i}@almanac.test`,
        summary,
        description: `${summary} ${LATIN.repeat(8)}`,
        stamp: new Date("2026-03-02T10:00:00Z"),
        start: new Date(Date.UTC(2027, 0, 1 + i, 9)),
        end: new Date(Date.UTC(2027, 0, 1 + i, 10)),
        timezone: i % 2 ? "Europe/Berlin" : "Asia/Tokyo",
        categories: [{ name: "team" }],
        x: [["X-ALMANAC-LAYER", CJK]],
      }),
    );
    return cal;
  };

  it("writes what calendar.toString() writes, byte for byte, events and zones included", () => {
    const cal = calendar(SAMPLES.filter((s) => s.length > 0));
    expect(calendarText(cal)).toBe(cal.toString());
  });

  it("leaves the calendar as it was (a later toString() is unchanged)", () => {
    const cal = calendar([`${EMOJI} launch`, `${CJK} review`]);
    const before = cal.toString();
    calendarText(cal);
    expect(cal.toString()).toBe(before);
  });

  it("writes a calendar without events as calendar.toString() does", () => {
    const cal = calendar([]);
    expect(calendarText(cal)).toBe(cal.toString());
  });
});
