import { z } from "zod";
import { applyImportBatch, requireRoomFor } from "../domain/commands/import.js";
import type { ImportCounts } from "../domain/import/batches.js";
import { MAX_IMPORT_BYTES } from "../domain/import/plan.js";
import { planImportWrites } from "../domain/queries/imported.js";
import { eventUsage } from "../domain/quotas.js";
import { defineRoute } from "../http/route.js";
import { presentImport } from "../presenters/imports.js";
import { importResult } from "../presenters/schemas/imports.js";
import { calendarParams } from "./common.js";

/** The reader (ical.js and the zone tables) loads with the first import, not with the API. */
const reader = () => import("../domain/import/read.js");

export const importRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/import",
    summary: "Import an iCalendar text (text/calendar, or JSON `ics`): events matched by UID, updated in place",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: calendarParams,
    query: z.strictObject({
      prune: z
        .enum(["true", "false"])
        .default("false")
        .describe("`true`: delete imported events the text no longer holds"),
    }),
    body: z.strictObject({
      ics: z
        .string()
        .max(MAX_IMPORT_BYTES, { message: `must be at most ${MAX_IMPORT_BYTES} characters; split the file` })
        .describe("The iCalendar text"),
    }),
    textBody: { type: "text/calendar", field: "ics", maxBytes: MAX_IMPORT_BYTES },
    response: importResult,
    errors: ["invalid_request", "unauthorized", "quota_exceeded"],
    // Each batch is whole in its own transaction; the handler's then stores the answer with the key.
    batches: async ({ deps, calendar: { calendar }, actor, query, body, transact }): Promise<ImportOutcome> => {
      const plan = await (await reader()).readIcs(body.ics, { timezone: calendar.timezone });
      const work = await planImportWrites(deps, calendar, plan, { prune: query.prune === "true" });
      requireRoomFor(deps, await eventUsage(deps, calendar.id), work);
      const counts: ImportCounts = { created: 0, updated: 0, deleted: 0 };
      const author = { id: actor.agentId, name: actor.agentName };
      for (const batch of work.batches) {
        const usage = await eventUsage(deps, calendar.id);
        const done = await transact((tx, access) => applyImportBatch(tx, deps, author, access.calendar, batch, usage));
        counts.created += done.created;
        counts.updated += done.updated;
        counts.deleted += done.deleted;
      }
      return { ...counts, unchanged: work.unchanged, skipped: work.skipped };
    },
    handler: async ({ prepared }) => presentImport(prepared),
  }),
];

type ImportOutcome = Parameters<typeof presentImport>[0];
