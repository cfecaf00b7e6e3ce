import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { CalendarRecord } from "../records.js";
import { isFeedOf, loadLayers, readableLayers } from "./layers.js";

/** A calendar whose events are shown on another: `main` for its own, else the layer key. */
export interface EventSource {
  layer: string;
  calendar: CalendarRecord;
}

/**
 * The calendars whose events compose `calendar` for this viewer: its own (`main`) and every
 * attached calendar the viewer could read directly (visible, or a live grant of the viewer),
 * and every outside feed attached to it (the host's own).
 * `viewer` is an actor, or null for anonymous. This is what the API shows a caller; what a
 * calendar publishes to everyone (pages, feeds, share views) is `publishedSources`.
 */
export async function eventSources(deps: Deps, calendar: CalendarRecord, viewer: Actor | null): Promise<EventSource[]> {
  const layers = await readableLayers(deps, calendar.id, viewer);
  return [{ layer: "main", calendar }, ...layers.map((l) => ({ layer: l.layer.key, calendar: l.calendar }))];
}

/**
 * The one rule of publishing (docs/api.md#publishing): a host calendar's page and feed, and its
 * share views and their feeds, show a layer's events only while the layer's calendar is public
 * or unlisted, or an owner of the host also holds the owner role (a live grant) on the layer
 * calendar. A reader or writer grant lets an agent read a private calendar, never publish it.
 * An outside feed's layer is the host's own (docs/decisions/feeds.md): published with it.
 * `wanted` narrows the layer keys (`main` included), as a view's `filter.layers` does.
 */
export async function publishedSources(
  deps: Deps,
  host: CalendarRecord,
  wanted: (key: string) => boolean = () => true,
): Promise<EventSource[]> {
  const layers = (await loadLayers(deps, host.id)).filter((l) => wanted(l.layer.key));
  const privateLayers = layers.filter((l) => l.calendar.visibility === "private" && !isFeedOf(l.calendar, host.id));
  const ownedByHostOwners = new Set<string>();
  if (privateLayers.length > 0) {
    const owners = await liveOwnerIds(deps, host.id);
    const memberships = await deps.store.getAll(
      owners.flatMap((agentId) => privateLayers.map((l) => paths.membership(agentId, l.calendar.id))),
    );
    for (const m of memberships) if (m?.data.role === "owner") ownedByHostOwners.add(m.data.calendar_id);
  }
  const sources: EventSource[] = wanted("main") ? [{ layer: "main", calendar: host }] : [];
  for (const { layer, calendar } of layers) {
    if (calendar.visibility !== "private" || isFeedOf(calendar, host.id) || ownedByHostOwners.has(calendar.id))
      sources.push({ layer: layer.key, calendar });
  }
  return sources;
}

async function liveOwnerIds(deps: Deps, calendarId: string): Promise<string[]> {
  const owners = await deps.store.query(paths.grants(calendarId), { where: [["role", "==", "owner"]] });
  return owners.filter((g) => !g.data.revoked_at).map((g) => g.data.agent_id);
}
