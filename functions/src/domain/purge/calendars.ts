/**
 * The purge of deleted calendars (docs/decisions/calendar-deletion.md), as steps: DELETE removes
 * the calendar record and queues `calendar_purges/{id}`; from then on nothing reads the rest,
 * and the purge job (jobs/purge.ts) removes it, one step's batch per transaction. Each batch
 * here runs in the transaction the job passes in and opens none: it reads what is left of its
 * kind, deletes at most PURGE_BATCH documents (Firestore allows 500 writes in one commit; a
 * grant takes two: itself and its agent's membership) and says whether its kind is done. Since
 * every batch asks the store what is left, a pass cut short (a crash, a deploy, its budget) is
 * taken up by the next one where it stopped. Slug and share-view slug records stay: an old
 * address must stay a 404, never become another calendar's (domain/slugs.ts bounds them).
 */
import type { CollectionRef, DocPath, QueryOf, StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { EVERY_CALENDAR } from "../actor.js";
import { detachLayer } from "../commands/layers.js";
import type { Deps } from "../deps.js";
import { DomainError } from "../errors.js";
import { paths } from "../paths.js";
import type { CalendarPurgeRecord } from "../records.js";
import type { WebhookRecord } from "../webhooks/records.js";

/** Documents one purge transaction reads and deletes at most (writes stay well under Firestore's 500). */
export const PURGE_BATCH = 200;
/** Webhooks one transaction takes the calendar from: three writes each (stream, queue entry, webhook). */
export const WEBHOOKS_PER_BATCH = 100;

/** Why a webhook left with no calendar stops (GET /v1/webhooks/{id} shows it). */
export const NO_CALENDARS_LEFT =
  "every calendar it followed was deleted; PATCH `calendars` and `enabled: true` to use it again, or delete it";

export type PurgeDeps = Pick<Deps, "clock">;

/** One batch of a step: what it deleted, and whether nothing of its kind is left. */
export interface BatchResult {
  deleted: number;
  done: boolean;
}

/** One kind of the calendar's documents: a batch of it in the caller's transaction. */
export type PurgeStep = (tx: Transaction) => Promise<BatchResult>;

/** Calendars waiting for their purge, oldest deletion first (an indexed query of `calendar_purges`). */
export function queuedPurges(
  reads: Pick<TransactionReads, "query">,
  limit: number,
): Promise<StoredDoc<CalendarPurgeRecord>[]> {
  return reads.query(paths.calendarPurges(), { orderBy: [["deleted_at", "asc"]], limit });
}

/**
 * The calendar's steps, in the order they run, each until it is done:
 *   1. detach from its hosts, as DELETE .../layers/{id} does (the host's feed says `layer.detached`);
 *   2. its own layers and their reverse links;
 *   3. its webhook streams, and its id from the webhooks that followed it;
 *   4. grants with each grantee's membership; events, exceptions, access and pending requests, views;
 *   5. its alarm queue entries and the heads of its alarm lanes;
 *   6. each shard's changes, then the shard (and its webhook outbox entry).
 */
export function purgeSteps(deps: PurgeDeps, calendarId: string): PurgeStep[] {
  return [
    detachFromHosts(deps, calendarId),
    deleteBatch(paths.layers(calendarId), (layer) => [paths.host(layer.data.calendar_id, calendarId)]),
    detachWebhooks(deps, calendarId),
    deleteBatch(paths.grants(calendarId), (grant) => [paths.membership(grant.data.agent_id, calendarId)]),
    deleteBatch(paths.events(calendarId)),
    deleteBatch(paths.exceptions(calendarId)),
    deleteBatch(paths.accessRequests(calendarId)),
    deleteBatch(paths.pendingRequests(calendarId)),
    deleteBatch(paths.views(calendarId)),
    deleteBatch(paths.alarmQueue(), () => [], { where: [["calendar_id", "==", calendarId]] }),
    deleteBatch(paths.alarmHeads(), () => [], { where: [["calendar_id", "==", calendarId]] }),
    deleteShards(calendarId),
  ];
}

/** The last write of a purge, once every step is done: the queue entry. */
export function finishPurge(tx: Transaction, calendarId: string): void {
  tx.delete(paths.calendarPurge(calendarId));
}

/** A batch of a collection's documents, with the documents each one implies. */
function deleteBatch<T>(
  collection: CollectionRef<T>,
  alsoDelete: (doc: StoredDoc<T>) => DocPath[] = () => [],
  filter: Pick<QueryOf<T>, "where"> = {},
): PurgeStep {
  return async (tx) => {
    const docs = await tx.query(collection, { ...filter, limit: PURGE_BATCH });
    for (const doc of docs) for (const path of [doc.path, ...alsoDelete(doc)]) tx.delete(path);
    return { deleted: docs.length, done: docs.length < PURGE_BATCH };
  };
}

/**
 * Hosts that show the calendar as a layer lose it as a detach would: the link goes and the
 * host's change feed says `layer.detached`. One host per transaction, with the layer command's
 * own reads.
 */
function detachFromHosts(deps: PurgeDeps, calendarId: string): PurgeStep {
  return async (tx) => {
    const [link] = await tx.query(paths.hosts(calendarId), { limit: 1 });
    if (!link) return { deleted: 0, done: true };
    try {
      await detachLayer(tx, deps, EVERY_CALENDAR, link.data.host_calendar_id, link.data.layer_id);
    } catch (err) {
      // The host may be deleted as well, its layer records purged before this link.
      if (!(err instanceof DomainError && err.code === "not_found")) throw err;
      tx.delete(link.path);
    }
    return { deleted: 1, done: false };
  };
}

/**
 * The calendar's webhook streams (`calendars/{id}/webhook_streams/{webhookId}`, one per webhook
 * that follows it) name the webhooks to change, so none is read that does not follow it: each
 * loses the stream, its delivery queue entry and the calendar's id in `calendars` (and in
 * `lost_access`). A webhook left with no calendar is kept but disabled, with
 * NO_CALENDARS_LEFT as its `disabled_reason`: its agent sees why it went quiet, and keeps its
 * URL and secret to follow other calendars.
 */
function detachWebhooks(deps: PurgeDeps, calendarId: string): PurgeStep {
  return async (tx) => {
    const streams = await tx.query(paths.calendarWebhookStreams(calendarId), { limit: WEBHOOKS_PER_BATCH });
    const hooks = await tx.getAll(streams.map((stream) => paths.webhook(stream.data.webhook_id)));
    const now = deps.clock().toISOString();
    streams.forEach((stream, i) => {
      tx.delete(stream.path);
      tx.delete(paths.deliveryQueueEntry(stream.data.webhook_id, calendarId));
      const hook = hooks[i];
      if (hook) tx.update(hook.path, withoutCalendar(hook.data, calendarId, now));
    });
    return { deleted: streams.length, done: streams.length < WEBHOOKS_PER_BATCH };
  };
}

/** A webhook's fields once `calendarId` is gone from it. */
export function withoutCalendar(
  hook: Readonly<WebhookRecord>,
  calendarId: string,
  now: string,
): Partial<WebhookRecord> {
  const calendars = hook.calendars.filter((id) => id !== calendarId);
  const changes: Partial<WebhookRecord> = { calendars, updated_at: now };
  if (hook.lost_access?.some((lost) => lost.calendar_id === calendarId))
    changes.lost_access = hook.lost_access.filter((lost) => lost.calendar_id !== calendarId);
  if (calendars.length === 0 && hook.enabled)
    Object.assign(changes, { enabled: false, disabled_reason: NO_CALENDARS_LEFT });
  return changes;
}

/** One shard at a time: a batch of its changes, and the shard record (and its outbox entry) once they are gone. */
function deleteShards(calendarId: string): PurgeStep {
  return async (tx) => {
    const [shard] = await tx.query(paths.shards(calendarId), { limit: 1 });
    if (!shard) return { deleted: 0, done: true };
    const n = Number(shard.id);
    const changes = await tx.query(paths.changes(calendarId, n), { limit: PURGE_BATCH });
    if (changes.length > 0) {
      for (const change of changes) tx.delete(change.path);
      return { deleted: changes.length, done: false };
    }
    tx.delete(shard.path);
    tx.delete(paths.webhookOutboxEntry(calendarId, n));
    return { deleted: 1, done: false };
  };
}
