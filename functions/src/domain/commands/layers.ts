import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { Transaction } from "../../storage/port.js";
import type { CommandDeps } from "../deps.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { credentialReaches } from "../policy.js";
import type { HostLinkRecord, LayerRecord } from "../records.js";
import { DEFAULT_SHARDS, drawShard, touchShard } from "../revision.js";
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
  // A layer of a calendar outside the credential is not listed to it, nor there to detach.
  if (!layer || !credentialReaches(actor, layer.data.calendar_id)) throw errors.notFound("layer");
  tx.delete(layer.path);
  tx.delete(paths.host(layer.data.calendar_id, hostId));
  recordChange(tx, deps, hostId, shard, { type: "layer.detached", id: layerId });
  touchShard(tx, shard);
  return layer.data;
}
