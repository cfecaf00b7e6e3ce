import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { CalendarRecord } from "../records.js";

/**
 * The calendar a slug belongs to: `current` when it is the calendar's slug now, false for
 * an earlier slug (pages answer 308 to the same path under `calendar.slug`). Null when no
 * calendar ever held the slug. Visibility is not applied here: the caller decides (a
 * private calendar is 404 without a live grant).
 */
export async function resolveCalendarSlug(
  deps: Pick<Deps, "store">,
  slug: string,
): Promise<{ calendar: CalendarRecord; current: boolean } | null> {
  if (!/^[a-z0-9-]+$/.test(slug)) return null; // not a slug at all: no read needed
  const owner = await deps.store.get(paths.slug(slug));
  if (!owner?.data.owner_id) return null;
  const calendar = await deps.store.get(paths.calendar(owner.data.owner_id));
  if (!calendar) return null;
  return { calendar: calendar.data, current: calendar.data.slug === slug };
}
