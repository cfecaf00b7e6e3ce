import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import type { CalendarRecord } from "../types.js";
import { readableLayers } from "./layers.js";

/** A calendar whose events are shown on another: `main` for its own, else the layer key. */
export interface EventSource {
  layer: string;
  calendar: CalendarRecord;
}

/**
 * The calendars whose events compose `calendar` for this viewer: its own (`main`) and every
 * attached calendar the viewer could read directly (visible, or a live grant of the viewer).
 * `viewer` is an actor, or null for anonymous (pages, feeds).
 */
export async function eventSources(deps: Deps, calendar: CalendarRecord, viewer: Actor | null): Promise<EventSource[]> {
  const layers = await readableLayers(deps, calendar.id, viewer);
  return [{ layer: "main", calendar }, ...layers.map((l) => ({ layer: l.layer.key, calendar: l.calendar }))];
}
