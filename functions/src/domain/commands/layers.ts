import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { StoredDoc, Transaction } from "../../storage/port.js";
import type { CommandDeps } from "../deps.js";
import { DEFAULT_REFRESH_MINUTES } from "../feeds/limits.js";
import type { FeedRecord } from "../feeds/records.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { credentialReaches } from "../policy.js";
import { newCalendarCounters } from "../quotas.js";
import type { CalendarRecord, HostLinkRecord, LayerRecord } from "../records.js";
import { DEFAULT_SHARDS, drawShard, firstShard, newRevision, touchShard, type DrawnShard } from "../revision.js";
import { recordChange } from "./changes.js";

export const MAX_LAYERS = 20;

/**
 * Attaches a calendar to a host, or renames the key of an existing link. The count, the keys
 * and both nesting directions are read in the caller's transaction, before it writes, so racing
 * attachments cannot pass 20 layers or build a chain.
 */
export async function attachLayer(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config" | "memory">,
  hostId: string,
  input: { calendar_id: string; key: string },
): Promise<LayerRecord> {
  const now = deps.clock().toISOString();
  const targetId = input.calendar_id;
  if (targetId === hostId) throw errors.layerDepth("a calendar cannot be a layer of itself");
  const [hostLayers, targetLayers, hostIsLayer, shard] = await Promise.all([
    tx.query(paths.layers(hostId)),
    tx.query(paths.layers(targetId), { limit: 1 }),
    tx.query(paths.hosts(hostId), { limit: 1 }),
    drawShard(tx, hostId, deps.config.revisionShards), // the change feed's number for this change (domain/commands/changes.ts)
  ]);
  const attached = (layer: LayerRecord) => {
    recordChange(tx, deps, hostId, shard, { type: "layer.attached", id: layer.id });
    touchShard(tx, shard);
    return layer;
  };
  const existing = hostLayers.find((l) => l.data.calendar_id === targetId);
  const keyHolder = hostLayers.find((l) => l.data.key === input.key && l.data.calendar_id !== targetId);
  const keyTaken = () => errors.keyTaken(input.key, keyHolder!.data.id);
  if (existing) {
    if (existing.data.key === input.key) return existing.data;
    if (keyHolder) throw keyTaken();
    tx.update(existing.path, { key: input.key });
    return attached({ ...existing.data, key: input.key });
  }
  if (targetLayers.length > 0) throw errors.layerDepth("that calendar has layers of its own");
  if (hostIsLayer.length > 0) throw errors.layerDepth("this calendar is itself a layer of another calendar");
  if (hostLayers.length >= MAX_LAYERS) throw errors.layerLimit(MAX_LAYERS);
  if (keyHolder) throw keyTaken();
  const layer: LayerRecord = {
    id: newId("lyr"),
    calendar_id: targetId,
    host_calendar_id: hostId,
    key: input.key,
    created_at: now,
  };
  const link: HostLinkRecord = { host_calendar_id: hostId, layer_id: layer.id, created_at: now };
  tx.create(paths.layer(hostId, layer.id), layer);
  tx.create(paths.host(targetId, hostId), link);
  return attached(layer);
}

/**
 * Removes the link and its reverse link; the attached calendar is untouched. `deps.config` may
 * be missing from the type only: the purge (domain/purge/calendars.ts) passes the instance's
 * deps under a narrower type, and the default shard count stands in until it names `config`.
 */
export async function detachLayer(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock"> & Partial<Pick<CommandDeps, "config" | "memory">>,
  actor: Pick<Actor, "calendars">,
  hostId: string,
  layerId: string,
): Promise<LayerRecord> {
  const [layer, shard] = await Promise.all([
    tx.get(paths.layer(hostId, layerId)),
    drawShard(tx, hostId, deps.config?.revisionShards ?? DEFAULT_SHARDS),
  ]);
  // A layer of a calendar outside the credential is not listed to it, nor there to detach; a
  // feed layer is the host's own.
  if (!layer || (!layer.data.feed && !credentialReaches(actor, layer.data.calendar_id))) throw errors.notFound("layer");
  tx.delete(layer.path);
  tx.delete(paths.host(layer.data.calendar_id, hostId));
  if (layer.data.feed) removeFeedCalendar(tx, deps, layer.data.calendar_id);
  recordChange(tx, deps, hostId, shard, { type: "layer.detached", id: layerId });
  touchShard(tx, shard);
  return layer.data;
}

/** A feed layer's calendar and what it holds: its feed record, and the host's layer and link to it. */
export interface AttachedFeed {
  layer: LayerRecord;
  calendar: CalendarRecord;
  feed: FeedRecord;
}

export interface FeedLayerInput {
  /** Already judged by the address policy, its name resolved (domain/feeds/url.ts). */
  feed_url: string;
  key: string;
  refresh_minutes?: number;
}

/**
 * Attaches an outside feed to a host (docs/decisions/feeds.md): a feed calendar in the host's
 * zone that will hold its events (private, no grants, no slug of its own: reachable only
 * through the layer), the layer and reverse link to it, and the feed record, due now so that
 * the next pass of the feeds job fetches it. The same URL again returns its layer, renamed to
 * a new key and set to a new interval when they differ. The count, keys and nesting are read
 * in the caller's transaction, as attachLayer reads them.
 */
export async function attachFeedLayer(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config" | "memory">,
  host: CalendarRecord,
  attachedBy: Pick<Actor, "agentId" | "agentName">,
  input: FeedLayerInput,
): Promise<AttachedFeed> {
  const now = deps.clock().toISOString();
  const [hostLayers, hostIsLayer, shard] = await Promise.all([
    tx.query(paths.layers(host.id)),
    tx.query(paths.hosts(host.id), { limit: 1 }),
    drawShard(tx, host.id, deps.config.revisionShards),
  ]);
  const feedLayers = hostLayers.filter((l) => l.data.feed);
  const [feeds, calendars] = await Promise.all([
    tx.getAll(feedLayers.map((l) => paths.feed(l.data.calendar_id))),
    tx.getAll(feedLayers.map((l) => paths.calendar(l.data.calendar_id))),
  ]);
  const existingAt = feeds.findIndex((f) => f?.data.url === input.feed_url);
  const existing = existingAt >= 0 ? feedLayers[existingAt] : null;
  const keyHolder = hostLayers.find((l) => l.data.key === input.key && l.id !== existing?.id);
  if (keyHolder) throw errors.keyTaken(input.key, keyHolder.data.id);
  if (existing) {
    const feed = feeds[existingAt]!;
    const calendar = calendars[existingAt]!.data;
    return changeFeedLayer(tx, deps, shard, { layer: existing, feed, calendar }, input);
  }
  if (hostIsLayer.length > 0) throw errors.layerDepth("this calendar is itself a layer of another calendar");
  if (hostLayers.length >= MAX_LAYERS) throw errors.layerLimit(MAX_LAYERS);

  const calendar: CalendarRecord = {
    id: newId("cal"),
    name: new URL(input.feed_url).hostname,
    slug: "",
    timezone: host.timezone,
    visibility: "private",
    purpose: null,
    default_view: null,
    views: null,
    created_at: now,
    updated_at: now,
    ...(host.created_by ? { created_by: host.created_by } : {}),
    revision: newRevision(),
    feed_of: host.id,
  };
  const layer: LayerRecord = {
    id: newId("lyr"),
    calendar_id: calendar.id,
    host_calendar_id: host.id,
    key: input.key,
    created_at: now,
    feed: true,
  };
  const feed: FeedRecord = {
    calendar_id: calendar.id,
    host_calendar_id: host.id,
    layer_id: layer.id,
    tenant: host.created_by ?? host.id,
    attached_by: { id: attachedBy.agentId, name: attachedBy.agentName },
    url: input.feed_url,
    refresh_minutes: input.refresh_minutes ?? DEFAULT_REFRESH_MINUTES,
    due_at: now,
    etag: null,
    last_modified: null,
    last_fetched_at: null,
    last_error: null,
    event_count: 0,
    created_at: now,
  };
  // Its events will all store sort_key and their span, as any new calendar's (create-calendar.ts).
  tx.create(paths.calendar(calendar.id), {
    ...calendar,
    ...newCalendarCounters(),
    event_sort_keys: true,
    event_spans: true,
  });
  const first = firstShard(calendar.id);
  tx.create(first.path, first.data);
  tx.create(paths.layer(host.id, layer.id), layer);
  tx.create(paths.host(calendar.id, host.id), { host_calendar_id: host.id, layer_id: layer.id, created_at: now });
  tx.create(paths.feed(calendar.id), feed);
  recordChange(tx, deps, host.id, shard, { type: "layer.attached", id: layer.id });
  touchShard(tx, shard);
  return { layer, calendar, feed };
}

/** The same feed attached again: a new key renames its layer, a new interval replaces the old from now. */
function changeFeedLayer(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "memory">,
  shard: DrawnShard,
  current: { layer: StoredDoc<LayerRecord>; feed: StoredDoc<FeedRecord>; calendar: CalendarRecord },
  input: FeedLayerInput,
): AttachedFeed {
  let layer = current.layer.data;
  let feed = current.feed.data;
  const refresh = input.refresh_minutes ?? feed.refresh_minutes;
  if (refresh !== feed.refresh_minutes) {
    const fetched = feed.last_fetched_at ? Date.parse(feed.last_fetched_at) : deps.clock().getTime();
    const due = new Date(Math.max(deps.clock().getTime(), fetched + refresh * 60_000)).toISOString();
    feed = { ...feed, refresh_minutes: refresh, due_at: feed.last_fetched_at ? due : feed.due_at };
    tx.update(current.feed.path, { refresh_minutes: feed.refresh_minutes, due_at: feed.due_at });
  }
  if (input.key !== layer.key) {
    layer = { ...layer, key: input.key };
    tx.update(current.layer.path, { key: input.key });
    recordChange(tx, deps, layer.host_calendar_id, shard, { type: "layer.attached", id: layer.id });
    touchShard(tx, shard);
  }
  return { layer, calendar: current.calendar, feed };
}

/**
 * A feed calendar leaves with its layer: its record and its feed record go now, and the purge
 * job removes its events, shards and changes as it does a deleted calendar's
 * (domain/purge/calendars.ts). Blind writes: the caller has done its reads.
 */
export function removeFeedCalendar(tx: Transaction, deps: Pick<CommandDeps, "clock">, calendarId: string): void {
  tx.delete(paths.calendar(calendarId));
  tx.delete(paths.feed(calendarId));
  tx.set(paths.calendarPurge(calendarId), { calendar_id: calendarId, deleted_at: deps.clock().toISOString() });
}
