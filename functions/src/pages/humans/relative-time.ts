/**
 * How far an instant is from now, in words ("in 3 days", "2 hours ago"): the account pages show
 * it beside each time, which their script shows in the reader's zone (in UTC without script).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? "" : "s"}`;

export function relativeTime(instant: Date, now: Date): string {
  const ms = instant.getTime() - now.getTime();
  const size = Math.abs(ms);
  if (size < MINUTE) return "now";
  const words =
    size < HOUR
      ? count(Math.round(size / MINUTE), "minute")
      : size < 2 * DAY
        ? count(Math.round(size / HOUR), "hour")
        : count(Math.round(size / DAY), "day");
  return ms > 0 ? `in ${words}` : `${words} ago`;
}
