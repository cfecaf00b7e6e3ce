/**
 * One feed's refresh (docs/decisions/feeds.md): claim it, fetch it conditionally, and when it
 * brought a new copy, read it in the host's zone and write what differs from the stored copy,
 * one transaction per batch, opened here; then record how it went. A 304 writes nothing but
 * the feed record. Whatever fails (the fetch, the text, a batch) leaves the last good copy and
 * its validators, says why in `last_error`, and the next fetch reads the feed whole again.
 */
import { applyImportBatch, requireRoomFor } from "../../domain/commands/import.js";
import type { Deps } from "../../domain/deps.js";
import { DomainError } from "../../domain/errors.js";
import type { FeedRecord } from "../../domain/feeds/records.js";
import { claimFeed, recordFetch, writeFeedBatch, type FetchReport } from "../../domain/feeds/refresh.js";
import type { ImportPlan } from "../../domain/import/plan.js";
import { readIcs } from "../../domain/import/read.js";
import { planImportWrites } from "../../domain/queries/imported.js";
import { eventUsage } from "../../domain/quotas.js";
import type { CalendarRecord } from "../../domain/records.js";
import type { FeedFetcher } from "../../outbound/fetch-feed.js";

/** How long a claimed feed is this pass's: past it (a crash mid-refresh), the feed is due again. */
export const CLAIM_MS = 5 * 60_000;

/** Whether the feed was handled (fetched, or removed with its deleted host); false when another pass had it. */
export async function refreshFeed(
  deps: Deps,
  fetch: FeedFetcher,
  due: Pick<FeedRecord, "calendar_id">,
): Promise<boolean> {
  const claim = await deps.store.runTransaction((tx) => claimFeed(tx, deps, due.calendar_id, CLAIM_MS));
  if (claim.kind !== "claimed") return claim.kind === "removed";
  const { feed, calendar } = claim;
  const fetched = await fetch(feed.url, { etag: feed.etag, lastModified: feed.last_modified });
  let report: FetchReport;
  if (fetched.outcome === "failed") report = { worked: false, error: fetched.error };
  else if (fetched.outcome === "unchanged") report = { worked: true, copy: null };
  else {
    const { etag, lastModified } = fetched.validators;
    report = await storeCopy(deps, feed, calendar, fetched.text).then(
      (stored): FetchReport =>
        stored === null
          ? { worked: false, error: "detached during the refresh" }
          : {
              worked: true,
              copy: { etag, last_modified: lastModified, event_count: stored.count },
              name: stored.name,
            },
      (err: unknown): FetchReport => ({ worked: false, error: `the feed could not be stored: ${reason(err)}` }),
    );
  }
  await deps.store.runTransaction((tx) => recordFetch(tx, deps, feed.calendar_id, report));
  return true;
}

/**
 * The copy's events written over the stored ones by UID, those gone from it deleted: how many
 * events it holds and the name it gives itself, or null when the layer was detached meanwhile.
 * A text that is no iCalendar, or holds more than MAX_IMPORT_EVENTS (domain/import/plan.ts), is
 * refused by the reader.
 */
async function storeCopy(
  deps: Deps,
  feed: FeedRecord,
  calendar: CalendarRecord,
  text: string,
): Promise<{ count: number; name: string | null } | null> {
  const plan = withoutAlarms(await readIcs(text, { timezone: calendar.timezone }));
  const work = await planImportWrites(deps, calendar, plan, { prune: true });
  // A copy is stored whole or not at all: one past the calendar's event quota keeps the last.
  requireRoomFor(deps, await eventUsage(deps, calendar.id), work);
  let stored = work.unchanged;
  for (const batch of work.batches) {
    const usage = await eventUsage(deps, calendar.id);
    const counts = await deps.store.runTransaction((tx) =>
      writeFeedBatch(tx, deps, feed, () => applyImportBatch(tx, deps, feed.attached_by, calendar, batch, usage)),
    );
    if (counts === null) return null;
    stored += counts.created + counts.updated;
  }
  return { count: stored, name: plan.name };
}

/**
 * A feed's alarms are not kept: an alarm fires into its own calendar's change feed, and a feed
 * calendar's is read by no one (docs/decisions/feeds.md); the host's readers set their own.
 */
function withoutAlarms(plan: ImportPlan): ImportPlan {
  return {
    ...plan,
    events: plan.events.map((item) => ({
      ...item,
      event: { ...item.event, alarms: null },
      exceptions: item.exceptions.map((e) => ({ ...e, change: { ...e.change, alarms: undefined } })),
    })),
  };
}

/** A refusal says what to do in the domain's words; anything else (a store failing) is named as it came. */
const reason = (err: unknown): string =>
  err instanceof DomainError ? err.message : err instanceof Error ? err.message : String(err);
