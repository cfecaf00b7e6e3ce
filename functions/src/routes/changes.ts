import { z } from "zod";
import { MAX_WAIT_SECONDS, readChanges } from "../domain/queries/changes.js";
import { changeCursorKey } from "../http/cursor-key.js";
import { defineRoute } from "../http/route.js";
import { presentChange } from "../presenters/changes.js";
import { calendarParams } from "./common.js";
import { changesPage } from "../presenters/schemas/changes.js";

const LIMIT = "must be an integer from 1 to 1000";
const WAIT = `must be a number of seconds from 0 to ${MAX_WAIT_SECONDS}`;

const changesQuery = z.strictObject({
  cursor: z.string().optional().describe("Previous answer's `cursor`; none: from now"),
  limit: z.coerce
    .number({ message: LIMIT })
    .int({ message: LIMIT })
    .min(1, { message: LIMIT })
    .max(1000, { message: LIMIT })
    .default(100)
    .describe("Most changes per answer"),
  wait: z.coerce
    .number({ message: WAIT })
    .min(0, { message: WAIT })
    .max(MAX_WAIT_SECONDS, { message: WAIT })
    .default(0)
    .describe("Long-poll: seconds to wait for a change"),
});

export const changeRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/changes",
    summary:
      "What changed in the calendar since `cursor` (events, occurrences, settings, layers), oldest first; " +
      "without `cursor` only the current cursor; `wait` long-polls for the next change",
    tags: ["events"],
    auth: "optional",
    calendar: "calendar.read",
    params: calendarParams,
    query: changesQuery,
    response: changesPage,
    errors: ["invalid_request", "unauthorized", "cursor_expired"],
    handler: async ({ deps, calendar: { calendar }, query, waiting }) => {
      const page = await readChanges(deps, calendar.id, query, waiting, await changeCursorKey(deps));
      return { changes: page.changes.map((c) => presentChange(c.seq, c.change)), cursor: page.cursor };
    },
  }),
];
