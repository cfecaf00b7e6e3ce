import type { ImportCounts } from "../domain/import/batches.js";
import type { SkippedComponent } from "../domain/import/plan.js";
import type { PresentedImport } from "./schemas/imports.js";

export const presentImport = (
  result: ImportCounts & { unchanged: number; skipped: readonly SkippedComponent[] },
): PresentedImport => ({
  created: result.created,
  updated: result.updated,
  unchanged: result.unchanged,
  deleted: result.deleted,
  skipped: result.skipped.map((s) => ({ uid: s.uid, reason: s.reason })),
});
