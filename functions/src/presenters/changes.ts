import type { ChangeRecord } from "../domain/records.js";
import type { PresentedChange } from "./schemas/changes.js";
import { presentEvent } from "./events.js";

export const presentChange = (seq: number, change: ChangeRecord): PresentedChange => ({
  seq,
  type: change.type,
  id: change.id,
  at: change.at,
  ...(change.event ? { event: presentEvent(change.event) } : {}),
  ...(change.original_date ? { original_date: change.original_date } : {}),
  ...(change.alarm ? { ...change.alarm, layer: "main" as const } : {}),
});
