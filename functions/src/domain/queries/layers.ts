import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import type { FeedRecord } from "../feeds/records.js";
import { compareSortKeys, paginate, type CreationKey, type Page, type PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import { mayRead } from "../policy.js";
import type { CalendarRecord, LayerRecord } from "../records.js";

/** A layer link and the calendar it attaches. */
export interface AttachedLayer {
  layer: LayerRecord;
  calendar: CalendarRecord;
}

const creationKey = (l: AttachedLayer): CreationKey => [l.layer.created_at, l.layer.id];

/**
 * Whether `calendar` holds an outside feed of this host (docs/decisions/feeds.md): it is read
 * and published exactly when its host is, whoever asks, as the host's own events are.
 */
export const isFeedOf = (calendar: CalendarRecord, hostId: string): boolean => calendar.feed_of === hostId;

/** Every layer of a host calendar with its calendar, oldest first. */
export async function loadLayers(deps: Deps, hostId: string): Promise<AttachedLayer[]> {
  const layers = (await deps.store.query(paths.layers(hostId))).map((d) => d.data);
  const calendars = await deps.store.getAll(layers.map((l) => paths.calendar(l.calendar_id)));
  return layers
    .flatMap((layer, i) => {
      const calendar = calendars[i]?.data;
      return calendar ? [{ layer, calendar }] : [];
    })
    .sort((a, b) => compareSortKeys(creationKey(a), creationKey(b)));
}

/** The layers whose calendar this viewer could read directly (visible, or a live grant and `calendar:read`). */
export async function readableLayers(deps: Deps, hostId: string, viewer: Actor | null): Promise<AttachedLayer[]> {
  const all = await loadLayers(deps, hostId);
  const others = all.filter((l) => !isFeedOf(l.calendar, hostId));
  const memberships = viewer
    ? await deps.store.getAll(others.map((l) => paths.membership(viewer.agentId, l.calendar.id)))
    : others.map(() => null);
  const roles = new Map(others.map((l, i) => [l.calendar.id, memberships[i]?.data.role ?? null]));
  return all.filter((l) => isFeedOf(l.calendar, hostId) || mayRead(l.calendar, viewer, roles.get(l.calendar.id)!));
}

/** A layer as its list shows it: a feed layer with where its refresh stands. */
export interface ListedLayer extends AttachedLayer {
  feed: FeedRecord | null;
}

export async function listLayers(
  deps: Deps,
  hostId: string,
  viewer: Actor | null,
  page: PageRequest,
): Promise<Page<ListedLayer>> {
  const listed = paginate(await readableLayers(deps, hostId, viewer), page, creationKey, "asc");
  const feeds = await deps.store.getAll(listed.items.filter((l) => l.layer.feed).map((l) => paths.feed(l.calendar.id)));
  const byCalendar = new Map(feeds.flatMap((f) => (f ? [[f.data.calendar_id, f.data]] : [])));
  return { ...listed, items: listed.items.map((l) => ({ ...l, feed: byCalendar.get(l.calendar.id) ?? null })) };
}
