/** Query-only links (`?view=…&date=…`): they resolve against the page's own path, so the
 * same markup serves /c/{slug} and /v/{slug} and never spells out a slug. */
import type { Lens } from "../domain/types.js";

export const lensHref = (lens: Lens, date?: string): string => (date ? `?view=${lens}&date=${date}` : `?view=${lens}`);

/** The lens that best shows one day in detail, if the page allows one. */
export function dayLens(lenses: readonly Lens[]): Lens | null {
  if (lenses.includes("week")) return "week";
  if (lenses.includes("schedule")) return "schedule";
  return null;
}
