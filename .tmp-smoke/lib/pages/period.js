/**
 * Which lens a page shows and which stretch of time it covers. Pure functions on
 * "YYYY-MM-DD" dates, so the loader and the renderers agree on the same period.
 */
import { addDays, daysInMonth, formatDate, isoWeekday, isValidDate } from "../domain/recurrence/index.js";
import { LENSES } from "../domain/types.js";
import { dateRange, monthYear, shortMonthYear } from "./format.js";
export const SCHEDULE_DAYS = 28;
export const TIMELINE_MONTHS = 3;
// Pages cover the years 1900..2199: beyond, dates are more likely typos than plans.
const MIN_DATE = "1900-01-01";
const MAX_DATE = "2199-12-31";
const inRange = (date) => date >= MIN_DATE && date <= MAX_DATE;
/** `?date=` if it is a real date in range, else `today`. */
export function pageDate(requested, today) {
    return typeof requested === "string" && isValidDate(requested) && inRange(requested) ? requested : today;
}
/** The lenses a page allows, in the canonical order (null or empty: all). */
export function allowedLenses(views) {
    if (!views || views.length === 0)
        return [...LENSES];
    return LENSES.filter((lens) => views.includes(lens));
}
/** `?view=` when allowed, else the default view when allowed, else the first allowed lens. */
export function chooseLens(requested, allowed, defaultView) {
    if (typeof requested === "string" && allowed.includes(requested))
        return requested;
    if (defaultView && allowed.includes(defaultView))
        return defaultView;
    return allowed[0];
}
export const startOfWeek = (date) => addDays(date, 1 - isoWeekday(date));
export const startOfMonth = (date) => `${date.slice(0, 8)}01`;
/** The 1st of the month `n` months after the month of `date` (n may be negative). */
export function addMonths(date, n) {
    const index = +date.slice(0, 4) * 12 + (+date.slice(5, 7) - 1) + n;
    return formatDate(Math.floor(index / 12), (index % 12) + 1, 1);
}
export const endOfMonth = (date) => formatDate(+date.slice(0, 4), +date.slice(5, 7), daysInMonth(+date.slice(0, 4), +date.slice(5, 7)));
const edge = (date) => (inRange(date) ? date : null);
export function periodFor(lens, date) {
    switch (lens) {
        case "month": {
            // Whole weeks around the month, so the grid's leading and trailing days show their events.
            const first = startOfMonth(date);
            return {
                from: startOfWeek(first),
                to: addDays(startOfWeek(endOfMonth(date)), 6),
                label: monthYear(date),
                prev: edge(addMonths(date, -1)),
                next: edge(addMonths(date, 1)),
            };
        }
        case "week": {
            const from = startOfWeek(date);
            const to = addDays(from, 6);
            return { from, to, label: dateRange(from, to), prev: edge(addDays(from, -7)), next: edge(addDays(from, 7)) };
        }
        case "schedule": {
            const to = addDays(date, SCHEDULE_DAYS - 1);
            return { from: date, to, label: dateRange(date, to), prev: edge(addDays(date, -SCHEDULE_DAYS)), next: edge(addDays(date, SCHEDULE_DAYS)) };
        }
        case "timeline": {
            const from = startOfMonth(date);
            const to = endOfMonth(addMonths(date, TIMELINE_MONTHS - 1));
            return {
                from,
                to,
                label: `${shortMonthYear(from)} – ${shortMonthYear(to)}`,
                prev: edge(addMonths(date, -TIMELINE_MONTHS)),
                next: edge(addMonths(date, TIMELINE_MONTHS)),
            };
        }
    }
}
//# sourceMappingURL=period.js.map