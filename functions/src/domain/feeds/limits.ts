/** What bounds a feed layer (docs/api.md#layers): how often it is fetched, and how much one copy may hold. */
import { MAX_IMPORT_EVENTS } from "../import/plan.js";

export const DEFAULT_REFRESH_MINUTES = 60;
/** The shortest interval: an outside server is asked at most four times an hour per layer. */
export const MIN_REFRESH_MINUTES = 15;
export const MAX_REFRESH_MINUTES = 7 * 24 * 60;
/** The largest answer read; past it the fetch fails and the last good copy stays. */
export const MAX_FEED_BYTES = 5 * 1024 * 1024;
export const MAX_FEED_EVENTS = MAX_IMPORT_EVENTS;
/** A fetch's whole time, from connection to the last byte. */
export const FEED_FETCH_TIMEOUT_MS = 10_000;
/** The longest a stored `last_error` runs. */
export const MAX_ERROR_LENGTH = 300;

/** A feed calendar takes its copy's own name up to the length of any calendar's name. */
export const MAX_CALENDAR_NAME = 200;
