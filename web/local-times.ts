/**
 * Times on the claim and account pages in the reader's zone. The server writes each instant in
 * UTC, named, in a `<time class="instant" datetime="…Z">`, which a browser without script shows
 * as it is; here each is written again in the browser's zone and locale, and the zone named by
 * city and offset as the calendar pages name theirs ("Nov 24, 2026, 4:30 AM New York time,
 * UTC−5"). The UTC text stays in the element's title.
 */

/** "UTC−5", "UTC+5:30", "UTC": the offset of `zone` at `at`, from the browser's own tables. */
function offsetName(zone: string, at: Date): string {
  const options = { timeZone: zone, timeZoneName: "longOffset" } as Intl.DateTimeFormatOptions;
  const part = new Intl.DateTimeFormat("en-US", options).formatToParts(at).find((p) => p.type === "timeZoneName");
  const [, sign, hours, minutes] = /^GMT([+-])(\d\d):(\d\d)$/.exec(part?.value ?? "") ?? [];
  if (!sign || +hours + +minutes === 0) return "UTC";
  return `UTC${sign === "-" ? "\u2212" : "+"}${+hours}${minutes === "00" ? "" : `:${minutes}`}`;
}

/** Cities whose names changed, which browsers may still give by their former names. */
const RENAMED: Record<string, string> = {
  Calcutta: "Kolkata",
  Saigon: "Ho Chi Minh",
  Katmandu: "Kathmandu",
  Rangoon: "Yangon",
  Kiev: "Kyiv",
};

/** "New York time, UTC−5", or "UTC" when the reader's zone is UTC. */
export function zoneName(zone: string, at: Date): string {
  const offset = offsetName(zone, at);
  if (!zone.includes("/") || zone.startsWith("Etc/")) return offset;
  const city = zone.slice(zone.lastIndexOf("/") + 1).replaceAll("_", " ");
  return `${RENAMED[city] ?? city} time, ${offset}`;
}

/** Rewrites every `time.instant` under `root` in the browser's zone and locale. */
export function showTimesInReaderZone(root: ParentNode = document): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  for (const time of root.querySelectorAll<HTMLTimeElement>("time.instant[datetime]")) {
    const at = new Date(time.dateTime);
    if (Number.isNaN(at.getTime())) continue;
    time.title = time.textContent ?? "";
    time.textContent = `${format.format(at)} ${zoneName(zone, at)}`;
  }
}
