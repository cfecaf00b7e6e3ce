/**
 * Date and time labels for the pages from "YYYY-MM-DD" strings: in English, plain table look-ups;
 * in the locale of the page being rendered (locale.ts), Intl's.
 */
import { isoWeekday } from "../domain/recurrence/index.js";
import type { Recur } from "../domain/types.js";
import { dateIn, dateRangeIn, renderLocale } from "./locale.js";

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** The label in the page's locale, or null for the English tables. */
function inLocale(date: string, options: Intl.DateTimeFormatOptions): string | null {
  const locale = renderLocale();
  return locale ? dateIn(locale, date, options) : null;
}

const parts = (date: string) => ({ y: +date.slice(0, 4), m: +date.slice(5, 7), d: +date.slice(8, 10) });
const short = (name: string) => name.slice(0, 3);

/** "November 2026" */
export const monthYear = (date: string): string =>
  inLocale(date, { month: "long", year: "numeric" }) ?? `${MONTHS[parts(date).m - 1]} ${parts(date).y}`;

/** "Nov 2026" */
export const shortMonthYear = (date: string): string =>
  inLocale(date, { month: "short", year: "numeric" }) ?? `${short(MONTHS[parts(date).m - 1])} ${parts(date).y}`;

/** "Nov 23" */
export function shortDate(date: string): string {
  const localized = inLocale(date, { month: "short", day: "numeric" });
  if (localized) return localized;
  const { m, d } = parts(date);
  return `${short(MONTHS[m - 1])} ${d}`;
}

/** "Monday, November 23, 2026" */
export function longDate(date: string): string {
  const localized = inLocale(date, { weekday: "long", day: "numeric", month: "long", year: "numeric" });
  if (localized) return localized;
  const { y, m, d } = parts(date);
  return `${WEEKDAYS[isoWeekday(date) - 1]}, ${MONTHS[m - 1]} ${d}, ${y}`;
}

/** Monday to Sunday, long and short ("Monday", "Mon"): a month's column heads. */
export const weekdayHeaders = (): Array<{ long: string; short: string }> =>
  // 2026-11-23 is a Monday.
  WEEKDAYS.map((long, i) => {
    const date = `2026-11-${23 + i}`;
    return {
      long: inLocale(date, { weekday: "long" }) ?? long,
      short: inLocale(date, { weekday: "short" }) ?? short(long),
    };
  });

/** "Tue 8 Dec" */
export const weekdayDayMonth = (date: string): string =>
  inLocale(date, { weekday: "short", day: "numeric", month: "short" }) ??
  `${shortWeekday(date)} ${parts(date).d} ${short(MONTHS[parts(date).m - 1])}`;

/** "Mon" */
export const shortWeekday = (date: string): string =>
  inLocale(date, { weekday: "short" }) ?? short(WEEKDAYS[isoWeekday(date) - 1]);

export const dayOfMonth = (date: string): number => parts(date).d;

/** "Nov 23 – 29, 2026", "Nov 30 – Dec 6, 2026", "Dec 28, 2026 – Jan 3, 2027" */
export function dateRange(from: string, to: string): string {
  const locale = renderLocale();
  if (locale) return dateRangeIn(locale, from, to);
  const a = parts(from);
  const b = parts(to);
  if (a.y !== b.y) return `${shortDate(from)}, ${a.y} – ${shortDate(to)}, ${b.y}`;
  if (a.m !== b.m) return `${shortDate(from)} – ${shortDate(to)}, ${b.y}`;
  return `${shortDate(from)} – ${b.d}, ${b.y}`;
}

const ordinal = (n: number): string => {
  const rem100 = n % 100;
  if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
};

/** Weekday 0..7 (Monday = 1; 0 and 7 Sunday) to its name. */
const weekdayName = (day: number) => WEEKDAYS[(day + 6) % 7];

/** "Monday", "Monday and Friday", "Monday, Wednesday and Friday" (in week order). */
function weekdayList(day: number | number[]): string {
  const names = (Array.isArray(day) ? [...day].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)) : [day]).map(weekdayName);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
}

/**
 * "every day", "every 2 weeks on Monday and Friday", "every month on the last day", "every month
 * on the second Tuesday", "every year on March 3", with ", 10 times" for a counted series.
 */
export function describeRecur(recur: Recur): string {
  const every = (unit: string, plural: string) =>
    recur.interval && recur.interval > 1 ? `every ${recur.interval} ${plural}` : `every ${unit}`;
  const times = recur.count != null ? `, ${recur.count} time${recur.count === 1 ? "" : "s"}` : "";
  const day = typeof recur.day === "number" ? recur.day : 1;
  switch (recur.type) {
    case "daily":
      return every("day", "days") + times;
    case "weekly":
      return `${every("week", "weeks")} on ${weekdayList(recur.day ?? 7)}${times}`;
    case "monthly": {
      const nth = ["last", "", "first", "second", "third", "fourth", "fifth"][(recur.week ?? 0) + 1];
      const which = recur.week != null ? `${nth} ${weekdayName(day)}` : day === -1 ? "last day" : ordinal(day);
      return `${every("month", "months")} on the ${which}${times}`;
    }
    case "yearly":
      return `${every("year", "years")} on ${MONTHS[(recur.month ?? 1) - 1]} ${day}${times}`;
  }
}
