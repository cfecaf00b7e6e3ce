/**
 * Property test: whatever is done to real files' lines (a line dropped, doubled, cut short, its
 * value or parameters replaced by noise, two lines swapped), reading the text either gives a
 * plan, every event of which a create would take, or refuses the whole text with a DomainError
 * (invalid_request). Never anything else: an error of another kind would be a 500 at the import.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import { eventFieldsFromCreate } from "../../functions/src/domain/events/rules.js";
import { readIcs } from "../../functions/src/domain/import/read.js";

const FILES = [
  "google-monthly-last-friday-moved.ics",
  "exchange-windows-zones.ics",
  "apple-ical-monthly-bill-overrides.ics",
  "thunderbird-moved-occurrences.ics",
  "khal-custom-zones-rdates.ics",
];

const linesOf = (name: string): string[] =>
  readFileSync(new URL(`../fixtures/ics-field/${name}`, import.meta.url), "utf8").split(/\r?\n/);

const noise = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", ":", ";", "=", '"', "T", "Z", "-P", "20261301", "FREQ=", "BYDAY=9XX", "\u0000", "é"),
);

type Mutation = (lines: string[]) => string[];

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.filter((_, i) => i !== n % lines.length),
  ),
  fc.nat().map(
    (n): Mutation =>
      (lines) =>
        lines.flatMap((l, i) => (i === n % lines.length ? [l, l] : [l])),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([n, cut]): Mutation =>
      (lines) =>
        lines.map((l, i) => (i === n % lines.length ? l.slice(0, cut % (l.length + 1)) : l)),
  ),
  fc.tuple(fc.nat(), noise).map(
    ([n, text]): Mutation =>
      (lines) =>
        lines.map((l, i) =>
          i === n % lines.length && l.includes(":") ? `${l.slice(0, l.indexOf(":") + 1)}${text}` : l,
        ),
  ),
  fc.tuple(fc.nat(), noise).map(
    ([n, text]): Mutation =>
      (lines) =>
        lines.map((l, i) => (i === n % lines.length && l.includes(";") ? l.replace(/;[^:;]*/, `;${text}`) : l)),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]): Mutation => (lines) => {
    const copy = [...lines];
    const [i, j] = [a % copy.length, b % copy.length];
    [copy[i], copy[j]] = [copy[j], copy[i]];
    return copy;
  }),
);

describe("readIcs on mutated real files", () => {
  it("gives a plan a create would take, or refuses the text with a DomainError; nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILES),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (file, changes) => {
          const text = changes.reduce((lines, change) => change(lines), linesOf(file)).join("\r\n");
          let plan;
          try {
            plan = await readIcs(text, { timezone: "Europe/Berlin" });
          } catch (err) {
            expect(err).toBeInstanceOf(DomainError);
            expect((err as DomainError).code).toBe("invalid_request");
            return;
          }
          for (const event of plan.events) {
            expect(() => eventFieldsFromCreate(event.event, "2026-11-22"), event.uid).not.toThrow();
          }
          for (const skip of plan.skipped) expect(skip.reason.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });
});
