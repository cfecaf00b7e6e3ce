import { z } from "zod";

export const importResult = z
  .object({
    created: z.number().int().describe("Events the text added"),
    updated: z.number().int().describe("Events an earlier import stored that the text changed"),
    unchanged: z.number().int().describe("Events already as the text has them"),
    deleted: z.number().int().describe("Imported events the text no longer holds (with `prune=true`)"),
    skipped: z
      .array(
        z.object({
          uid: z.string().nullable().describe("UID of the component, null when it has none"),
          reason: z.string().describe("Why it was left out"),
        }),
      )
      .describe("Components, or parts of them such as an alarm, that Almanac cannot represent, each with why"),
  })
  .meta({ description: "What an import did (/docs/import.md)" });
export type PresentedImport = z.input<typeof importResult>;
