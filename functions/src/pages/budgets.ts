/**
 * What one page or feed may draw, whatever the calendar holds (an attacker's host with 20 layers
 * of 1,000 daily series has 840,000 occurrences in a month grid). Pages and feeds are
 * anonymous and cached per revision, so their cost must not grow with the data; the API pages
 * through everything (GET .../occurrences with next_cursor). docs/ARCHITECTURE.md and
 * hosting/docs/views-and-layers.md describe these cuts.
 */

/**
 * Occurrences drawn on one page, whatever the lens. Events are taken in the order of a day
 * (untimed first, then by start time, then creation), each with all its occurrences in the
 * period, while they fit: every day shows its earliest events, and a note says how many more
 * there are.
 */
export const PAGE_OCCURRENCE_BUDGET = 1000;

/** Someday events listed on one page (schedule and timeline lenses), oldest first. */
export const PAGE_SOMEDAY_BUDGET = 200;

/** Someday events read of each source, to list the oldest and count the rest (a count beyond is at least this). */
export const PAGE_SOMEDAY_COUNTED = 1000;

/**
 * Events in one iCalendar feed: those that occur on or after today first (soonest first), then
 * past ones (latest first); the feed lists what it keeps in its usual order.
 */
export const FEED_EVENT_BUDGET = 1000;

/** Characters of an event's notes a feed carries (the rest is on the page): 1,000 events stay under about 2 MB. */
export const FEED_NOTE_CHARACTERS = 1_500;

/**
 * Characters of notes one page renders as Markdown. Markdown with links and lists costs about
 * 0.4 ms per thousand characters, so a page of 1,000 events with 10,000 characters each would
 * hold the process for seconds; within this budget it is about 40 ms. Past it, notes show as
 * plain text, cut (pages/lenses/schedule.ts).
 */
export const PAGE_NOTES_MARKDOWN_BUDGET = 100_000;
