/** Query-only links (`?view=…&date=…`): they resolve against the page's own path, so the
 * same markup serves /c/{slug} and /v/{slug} and never spells out a slug. */
import type { Lens } from "../domain/types.js";
import { tzParam, type ReaderZone } from "./reader-zone.js";

/** `?view=…&date=…`, with the reader's `tz` (pages/reader-zone.ts) when the page has one. */
export const lensHref = (lens: Lens, date?: string, reader: Pick<ReaderZone, "tz"> = { tz: null }): string =>
  `?view=${lens}${date ? `&date=${date}` : ""}${tzParam(reader)}`;

/** The lens that best shows one day in detail, if the page allows one. */
export function dayLens(lenses: readonly Lens[]): Lens | null {
  if (lenses.includes("week")) return "week";
  if (lenses.includes("schedule")) return "schedule";
  return null;
}
