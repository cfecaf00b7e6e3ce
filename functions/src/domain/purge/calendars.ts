/**
 * The purge of deleted calendars (docs/decisions/calendar-deletion.md). DELETE removes the
 * calendar record and queues `calendar_purges/{id}`; from then on nothing reads the rest, and a
 * pass removes it here, in transactions of at most PURGE_BATCH documents (Firestore allows 500
 * writes in one commit; a grant takes two: itself and its agent's membership). Every step asks
 * the store what is left, so a pass cut short (a crash, a deploy, its budget spent) is taken up by
 * the next one where it stopped. Slug and share-view slug records stay: an old address must stay
 * a 404, never become another calendar's.
 */
import type { CollectionRef, DocPath, QueryOf, StoredDoc } from "../../storage/port.js";
import { detachLayer } from "../commands/layers.js";
import type { Deps } from "../deps.js";
import { DomainError } from "../errors.js";
import { paths } from "../paths.js";

/** Documents one purge transaction reads and deletes at most (writes stay well under Firestore's 500). */
export const PURGE_BATCH = 200;
/** Batches that delete something, per pass; a pass that spends them answers `more` and the next goes on. */
export const PURGE_PASS_BATCHES = 50;
/** Hosts detached per batch: each is a transaction of its own. */
const HOSTS_PER_BATCH = 20;

type PurgeDeps = Pick<Deps, "store" | "clock">;

export interface PurgeResult {
  /** Calendars whose last document went in this pass. */
  purged: number;
  /** Documents deleted. */
  documents: number;
  /** Work is left: the pass spent its budget. */
  more: boolean;
}

/** Purges queued calendars, oldest deletion first, within `budget` batches that delete something. */
export async function purgeDeletedCalendars(deps: PurgeDeps, budget = PURGE_PASS_BATCHES): Promise<PurgeResult> {
  const result: PurgeResult = { purged: 0, documents: 0, more: false };
  let left = budget;
  const queued = await deps.store.query(paths.calendarPurges(), { orderBy: [["deleted_at", "asc"]], limit: budget });
  for (const entry of queued) {
    const done = await purgeCalendar(deps, entry.data.calendar_id, () => left-- > 0, result);
    if (!done) return { ...result, more: true };
    await deps.store.runTransaction(async (tx) => tx.delete(entry.path));
    result.purged += 1;
  }
  return { ...result, more: queued.length === budget };
}

/**
 * Runs the calendar's steps in order, each until it is done; false when the budget ran out
 * first. `spend` takes one batch of the budget, or says none is left. A step that finds nothing
 * costs no batch, so every pass makes progress, however small its budget.
 */
async function purgeCalendar(
  deps: PurgeDeps,
  calendarId: string,
  spend: () => boolean,
  result: PurgeResult,
): Promise<boolean> {
  for (const step of steps(deps, calendarId)) {
    for (;;) {
      const { deleted, done } = await step();
      result.documents += deleted;
      if (done) break;
      if (!spend()) return false;
    }
  }
  return true;
}

/** One batch of a step: what it deleted, and whether nothing of its kind is left. */
type Step = () => Promise<{ deleted: number; done: boolean }>;

function steps(deps: PurgeDeps, calendarId: string): Step[] {
  return [
    detachFromHosts(deps, calendarId),
    deleteBatch(deps, paths.layers(calendarId), (layer) => [paths.host(layer.data.calendar_id, calendarId)]),
    deleteBatch(deps, paths.grants(calendarId), (grant) => [paths.membership(grant.data.agent_id, calendarId)]),
    deleteBatch(deps, paths.events(calendarId)),
    deleteBatch(deps, paths.exceptions(calendarId)),
    deleteBatch(deps, paths.accessRequests(calendarId)),
    deleteBatch(deps, paths.pendingRequests(calendarId)),
    deleteBatch(deps, paths.views(calendarId)),
    deleteBatch(deps, paths.alarmQueue(), () => [], { where: [["calendar_id", "==", calendarId]] }),
    deleteShards(deps, calendarId),
  ];
}

/** Deletes a batch of a collection's documents, with the documents each one implies, in one transaction. */
function deleteBatch<T>(
  deps: PurgeDeps,
  collection: CollectionRef<T>,
  alsoDelete: (doc: StoredDoc<T>) => DocPath[] = () => [],
  filter: Pick<QueryOf<T>, "where"> = {},
): Step {
  return async () => {
    const docs = await deps.store.query(collection, { ...filter, limit: PURGE_BATCH });
    if (docs.length > 0) {
      await deps.store.runTransaction(async (tx) => {
        for (const doc of docs) for (const path of [doc.path, ...alsoDelete(doc)]) tx.delete(path);
      });
    }
    return { deleted: docs.length, done: docs.length < PURGE_BATCH };
  };
}

/**
 * Hosts that show the calendar as a layer lose it as a detach would: the link goes and the host's
 * change feed says `layer.detached`. One transaction per host, as DELETE .../layers/{id} runs it.
 */
function detachFromHosts(deps: PurgeDeps, calendarId: string): Step {
  return async () => {
    const links = await deps.store.query(paths.hosts(calendarId), { limit: HOSTS_PER_BATCH });
    for (const link of links) {
      await deps.store.runTransaction(async (tx) => {
        try {
          await detachLayer(tx, deps, link.data.host_calendar_id, link.data.layer_id);
        } catch (err) {
          // The host may be deleted as well, its layer records purged before this link.
          if (!(err instanceof DomainError && err.code === "not_found")) throw err;
          tx.delete(link.path);
        }
      });
    }
    return { deleted: links.length, done: links.length < HOSTS_PER_BATCH };
  };
}

/** One shard at a time: a batch of its changes, and the shard record once they are gone. */
function deleteShards(deps: PurgeDeps, calendarId: string): Step {
  return async () => {
    const [shard] = await deps.store.query(paths.shards(calendarId), { limit: 1 });
    if (!shard) return { deleted: 0, done: true };
    const changes = await deleteBatch(deps, paths.changes(calendarId, Number(shard.id)))();
    if (changes.deleted > 0) return { deleted: changes.deleted, done: false };
    await deps.store.runTransaction(async (tx) => tx.delete(shard.path));
    return { deleted: 1, done: false };
  };
}
