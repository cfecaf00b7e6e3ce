/**
 * The locale a page writes its dates and times in: the calendar's `locale`, else the reader's
 * `Accept-Language` (its first tag Intl formats dates in). English readers, and readers whose
 * languages Intl does not know, get the pages' own English labels (format.ts).
 *
 * Rendering is synchronous, so a page is rendered inside `renderedIn(locale, …)` and the
 * labels of format.ts read the locale from there, rather than every lens passing it down.
 */
let current: string | null = null;

export function renderedIn<T>(locale: string | null, render: () => T): T {
  const before = current;
  current = locale;
  try {
    return render();
  } finally {
    current = before;
  }
}

/** The locale of the page being rendered; null for the pages' own English labels. */
export const renderLocale = (): string | null => current;

/** The calendar's locale, else the first of the reader's languages Intl formats dates in (null for English). */
export function pageLocale(calendarLocale: string | null | undefined, languages: readonly string[]): string | null {
  if (calendarLocale) return calendarLocale;
  for (const tag of languages) {
    if (tag === "*") continue;
    let supported: string[];
    try {
      supported = Intl.DateTimeFormat.supportedLocalesOf(tag);
    } catch {
      continue;
    }
    if (supported.length === 0) continue;
    return new Intl.Locale(supported[0]).language === "en" ? null : supported[0];
  }
  return null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Readers name locales freely: past this many formatters the cache starts over. */
const MAX_FORMATTERS = 256;

/** A cached formatter of dates (as UTC midnights) or clock times in the page's locale. */
export function formatterFor(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, made);
  }
  return made;
}

const utc = (date: string): number => Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10));

/** A "YYYY-MM-DD" date in `locale`. */
export const dateIn = (locale: string, date: string, options: Intl.DateTimeFormatOptions): string =>
  formatterFor(locale, options).format(utc(date));

/** Two dates as one range in `locale` ("30. Nov. – 6. Dez. 2026"). */
export const dateRangeIn = (locale: string, from: string, to: string): string =>
  formatterFor(locale, { day: "numeric", month: "short", year: "numeric" }).formatRange(utc(from), utc(to));

/** "HH:MM" as the page's locale writes a time of day ("9:30 AM" for en-US, "09:30" for de); as is without one. */
export function clockTime(time: string): string {
  const locale = current;
  if (!locale) return time;
  const at = Date.UTC(2000, 0, 1, +time.slice(0, 2), +time.slice(3, 5));
  // A 24-hour clock writes two-digit hours ("09:30"), a 12-hour one does not ("9:30 AM").
  const twelve = formatterFor(locale, { hour: "numeric" }).resolvedOptions().hour12;
  return formatterFor(locale, { hour: twelve ? "numeric" : "2-digit", minute: "2-digit" }).format(at);
}
