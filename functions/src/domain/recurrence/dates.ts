/**
 * Calendar-date helpers on "YYYY-MM-DD" strings (local dates, no time, no zone).
 *
 * Arithmetic works on integer day numbers (days since 1970-01-01, proleptic
 * Gregorian) using Howard Hinnant's civil-date algorithms: no Date or luxon
 * objects on the hot path, so expanding thousands of series stays cheap.
 */
import { DateTime } from "luxon";

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days in month m (1..12) of year y. */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True for a real calendar date in strict "YYYY-MM-DD" form (2026-02-30 and 2026-1-01 are false). */
export function isValidDate(s: string): boolean {
  if (typeof s !== "string") return false;
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const y = +m[1];
  const mo = +m[2];
  const d = +m[3];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

/** The dates the API accepts: years 0001 to 9999, so every date prints as YYYY-MM-DD. */
export const FIRST_DATE = "0001-01-01";
export const LAST_DATE = "9999-12-31";

/**
 * A date as input may give it: a real date of the years 0001 to 9999. (isValidDate also takes
 * year 0000, which date arithmetic near 0001-01-01 may produce.)
 */
export function isInputDate(s: string): boolean {
  return isValidDate(s) && s >= FIRST_DATE;
}

/** Day number of a civil date (1970-01-01 is 0). Month 1..12. */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil date [year, month 1..12, day] of a day number. */
export function civilFromDays(n: number): [number, number, number] {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

// "00".."99": avoids padStart on every formatted occurrence.
const PAD2: string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? "0" : "") + i);

export function formatDate(y: number, m: number, d: number): string {
  const ys = y >= 1000 && y <= 9999 ? String(y) : String(y).padStart(4, "0");
  return ys + "-" + PAD2[m] + "-" + PAD2[d];
}

/** Day number of a "YYYY-MM-DD" date; throws RangeError if it is not a real date. */
export function dayNumber(date: string): number {
  if (!isValidDate(date)) throw new RangeError(`invalid date: ${JSON.stringify(date)}`);
  return daysFromCivil(+date.slice(0, 4), +date.slice(5, 7), +date.slice(8, 10));
}

export function fromDayNumber(n: number): string {
  const [y, m, d] = civilFromDays(n);
  return formatDate(y, m, d);
}

export function addDays(date: string, n: number): string {
  return fromDayNumber(dayNumber(date) + n);
}

/** b - a, in days. */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** ISO weekday (Monday = 1 .. Sunday = 7) of a day number. 1970-01-01 was a Thursday. */
export function isoWeekdayOfDay(n: number): number {
  return (((n % 7) + 10) % 7) + 1;
}

/** ISO weekday (Monday = 1 .. Sunday = 7). */
export function isoWeekday(date: string): number {
  return isoWeekdayOfDay(dayNumber(date));
}

/** Today's date in an IANA time zone at instant `now`; throws RangeError for an unknown zone. */
export function todayIn(zone: string, now: Date = new Date()): string {
  const iso = DateTime.fromJSDate(now, { zone }).toISODate();
  if (!iso) throw new RangeError(`invalid time zone: ${JSON.stringify(zone)}`);
  return iso;
}
