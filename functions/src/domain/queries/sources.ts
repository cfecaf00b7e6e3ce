import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import type { CalendarRecord } from "../types.js";

/** A calendar whose events are shown on another: `main` for its own, else the layer key. */
export interface EventSource {
  layer: string;
  calendar: CalendarRecord;
}

/**
 * The calendars whose events compose `calendar` for this viewer: its own (`main`) and, once
 * layers exist, every attached calendar the viewer could read directly.
 * `viewer` is an actor, or null for anonymous (pages, feeds).
 */
export async function eventSources(_deps: Deps, calendar: CalendarRecord, _viewer: Actor | null): Promise<EventSource[]> {
  return [{ layer: "main", calendar }];
}
