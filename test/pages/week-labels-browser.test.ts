/**
 * Week's names in chromium, at desktop and phone widths: a 15-minute event, three overlapping
 * hour-long events with long names and a day with more at once than fit side by side each
 * show their whole name inside their chip, which nothing covers; the crowded day says "+2
 * more", linking to its schedule. In Month, a two-day bar's long name wraps, whole, above the
 * chip of its second day. axe-core finds no violation in either theme.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  hasChromium,
  openPage,
  screenshot,
  SIZES,
  startChromium,
  type Chromium,
  type Size,
} from "./chromium.js";
import { LABELS_SLUG, LABELS_WEEK, LONG_BAR, PANEL, seedWeekLabels } from "./week-labels-site.js";

const WEEK = `/c/${LABELS_SLUG}?view=week&date=${LABELS_WEEK}`;
const MONTH = `/c/${LABELS_SLUG}?view=month&date=${LABELS_WEEK}`;
const NAMED = [
  "Vendor call",
  "Quick check-in with the facilities team about badge readers",
  "Interview: senior platform engineer",
  "Incident review of the November storage outage",
  "Budget planning with finance and operations",
  "Debrief",
  LONG_BAR,
];

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Drawn {
  name: string;
  chip: Box;
  text: Box;
  /** The chip's content overflows its box (it would be cut: chips hide their overflow). */
  overflows: boolean;
}

/** Every chip of `selector` the page shows: its name, its box, its name's box, and whether it overflows. */
async function drawnChips(page: Page, selector: string): Promise<Drawn[]> {
  return page.locator(selector).evaluateAll((chips) => {
    type Element = {
      getBoundingClientRect(): Box & { width: number };
      querySelector(s: string): Element;
      textContent: string;
      scrollWidth: number;
      scrollHeight: number;
      clientWidth: number;
      clientHeight: number;
    };
    const box = (e: Element): Box => {
      const { left, top, right, bottom } = e.getBoundingClientRect();
      return { left, top, right, bottom };
    };
    return (chips as unknown as Element[])
      .filter((chip) => chip.getBoundingClientRect().width > 0)
      .map((chip) => {
        const name = chip.querySelector(".name");
        return {
          name: name.textContent,
          chip: box(chip),
          text: box(name),
          overflows: chip.scrollWidth > chip.clientWidth || chip.scrollHeight > chip.clientHeight,
        };
      });
  });
}

const inside = (inner: Box, outer: Box): boolean =>
  inner.left >= outer.left && inner.right <= outer.right && inner.top >= outer.top && inner.bottom <= outer.bottom;

const overlap = (a: Box, b: Box): boolean =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** That each chip shows its whole name inside its box, and no chip covers another. */
function expectWholeAndApart(chips: Drawn[]): void {
  for (const c of chips) {
    expect(c.overflows, c.name).toBe(false);
    expect(inside(c.text, c.chip), c.name).toBe(true);
  }
  for (const a of chips) for (const b of chips) if (a !== b) expect(overlap(a.chip, b.chip), a.name).toBe(false);
}

describe.skipIf(!hasChromium)("week's names in chromium", () => {
  let chromium: Chromium;
  beforeAll(async () => {
    chromium = await startChromium("2026-12-07T09:00:00.000Z", seedWeekLabels);
  }, 60_000);
  afterAll(() => chromium?.close());

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`shows every drawn name whole, uncovered, on a ${size}`, async () => {
      const ctx = await chromium.context(size);
      try {
        const page = await openPage(ctx, chromium.origin, WEEK);
        const chips = await drawnChips(page, ".timed .ev, .week-spans .ev");
        // Side by side, the grid draws three of the five panels; the phone's list draws them all.
        const panels = chips.filter((c) => PANEL.includes(c.name));
        expect(panels).toHaveLength(size === "desktop" ? 3 : PANEL.length);
        expect(chips.map((c) => c.name).sort()).toEqual([...NAMED, ...panels.map((c) => c.name)].sort());
        expectWholeAndApart(chips);

        const more = page.locator(".crowded-note a");
        if (size === "desktop") {
          expect(await more.innerText()).toMatch(/^\+2 more\b/);
          expect(await more.getAttribute("href")).toBe("?view=schedule&date=2026-12-09");
        } else expect(await more.isVisible()).toBe(false);
        await screenshot(page, `week-names-${size}.png`);
      } finally {
        await ctx.close();
      }
    }, 60_000);

    it(`shows a two-day bar's long name whole in Month, above the chip it crosses, on a ${size}`, async () => {
      const ctx = await chromium.context(size);
      try {
        const page = await openPage(ctx, chromium.origin, MONTH);
        // The slots a bar crosses hold a hidden copy of it: not a chip the reader sees.
        const chips = await drawnChips(page, ".month .ev:not(.span-gap > .ev)");
        expect(chips.filter((c) => c.name === LONG_BAR)).toHaveLength(1);
        expect(chips.map((c) => c.name)).toContain("Debrief");
        expectWholeAndApart(chips);
      } finally {
        await ctx.close();
      }
    }, 60_000);
  }

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation on the week and month in ${scheme}, at both widths`, async () => {
      for (const size of Object.keys(SIZES) as Size[]) {
        const ctx = await chromium.context(size, scheme, true);
        try {
          for (const path of [WEEK, MONTH]) {
            const page = await openPage(ctx, chromium.origin, path);
            expect(await axeViolations(page, `${size} ${path}`)).toEqual([]);
          }
        } finally {
          await ctx.close();
        }
      }
    }, 90_000);
  }
});
