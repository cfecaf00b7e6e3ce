/**
 * What storing an import plan writes, decided before any transaction (queries/imported.ts) and
 * written batch by batch (commands/import.ts): each event with all its exceptions in one batch,
 * so a failed import leaves no event half-written.
 */
import type { ExceptionInput } from "../commands/exceptions.js";
import type { EventFields } from "../events/rules.js";
import type { SkippedComponent } from "./plan.js";

/** An event of the text, its fields checked as a create checks them. */
export interface ResolvedEvent {
  uid: string;
  fields: EventFields;
  /** Its exceptions by original date, each checked against the series. */
  exceptions: ReadonlyMap<string, ExceptionInput>;
}

export type ImportWrite =
  | { kind: "create"; event: ResolvedEvent }
  | { kind: "update"; eventId: string; event: ResolvedEvent }
  | { kind: "delete"; eventId: string; exceptionCount: number };

export interface ImportBatch {
  writes: ImportWrite[];
}

/** Everything an import will do: the batches to write, what already matches, what was left out. */
export interface ImportWork {
  batches: ImportBatch[];
  unchanged: number;
  skipped: SkippedComponent[];
}

/** What the batches wrote. */
export interface ImportCounts {
  created: number;
  updated: number;
  deleted: number;
}

/** The writes one transaction may hold, with room for the shard, heads and tenant it touches besides. */
export const BATCH_WRITES = 400;

/** What one write costs in documents: the event, a change and a queue entry, and two per exception. */
export const writeCost = (write: ImportWrite): number =>
  3 + 2 * (write.kind === "delete" ? write.exceptionCount : write.event.exceptions.size);
