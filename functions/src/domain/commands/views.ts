import { errors } from "../errors.js";
import type { Transaction } from "../../storage/port.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { newId, randomSlugSuffix } from "../ids.js";
import { paths } from "../paths.js";
import { authorizePublishing, viewLayerCalendars, viewWithinReach } from "../policy.js";
import { releaseQuota, takeQuota, writeCounter } from "../quotas.js";
import { claimSlug } from "../slugs.js";
import type { ShareViewRecord, ViewSlugRecord } from "../records.js";
import type { ViewDisplay, ViewFilter } from "../types.js";

/** 26 characters of [a-z0-9] carry about 134 bits: a capability URL nobody guesses. */
export const GENERATED_VIEW_SLUG_LENGTH = 26;

/** Omitted filter keys mean "no restriction" (docs/api.md#share-views). */
export const completeFilter = (filter: Partial<ViewFilter> = {}): ViewFilter => ({
  layers: filter.layers ?? null,
  categories: filter.categories ?? null,
  from: filter.from ?? null,
  to: filter.to ?? null,
  include_someday: filter.include_someday ?? true,
  include_recurring: filter.include_recurring ?? true,
});

/** Omitted display keys stay null: the page falls back to the calendar's settings when it renders. */
export const completeDisplay = (display: Partial<ViewDisplay> = {}): ViewDisplay => ({
  default_view: display.default_view ?? null,
  views: display.views && display.views.length > 0 ? display.views : null,
});

/**
 * The layers a view publishes: those `filter.layers` names (each a layer of the calendar), or
 * all of them; each one the caller's credential reaches (domain/policy.ts).
 */
async function assertPublishableLayers(
  tx: Transaction,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  filter: ViewFilter,
): Promise<void> {
  const wanted = (filter.layers ?? []).filter((key) => key !== "main");
  const everyLayer = filter.layers === null;
  if (wanted.length === 0 && !(everyLayer && actor.calendars !== null)) return;
  const layers = (await tx.query(paths.layers(calendarId))).map((l) => l.data);
  const keys = new Set(layers.map((l) => l.key));
  const unknown = wanted.filter((key) => !keys.has(key));
  if (unknown.length > 0) {
    throw errors.invalid(
      "invalid_request",
      `\`filter.layers\` names no layer of this calendar: ${unknown.map((k) => `\`${k}\``).join(", ")}; ` +
        "use `main` or keys from GET .../layers",
      { field: "filter.layers", unknown },
    );
  }
  authorizePublishing(actor, viewLayerCalendars(filter.layers, layers));
}

/** A live view of the calendar; to a restricted credential, only one within its reach. */
async function liveView(tx: Transaction, actor: Pick<Actor, "calendars">, calendarId: string, viewId: string) {
  const doc = await tx.get(paths.view(calendarId, viewId));
  if (!doc || doc.data.revoked_at) throw errors.notFound("share view");
  if (actor.calendars !== null) {
    const layers = (await tx.query(paths.layers(calendarId))).map((l) => l.data);
    if (!viewWithinReach(actor, doc.data.filter.layers, layers)) throw errors.notFound("share view");
  }
  return doc;
}

export interface NewView {
  name: string;
  slug?: string;
  filter?: Partial<ViewFilter>;
  display?: Partial<ViewDisplay>;
}

async function readCalendar(tx: Transaction, calendarId: string) {
  const calendar = await tx.get(paths.calendar(calendarId));
  if (!calendar) throw errors.notFound("calendar");
  return calendar;
}

/** A live view counts against the calendar's view quota until it is revoked. */
export async function createView(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config">,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  input: NewView,
): Promise<ShareViewRecord> {
  const now = deps.clock().toISOString();
  const id = newId("viw");
  const filter = completeFilter(input.filter);
  const calendar = await readCalendar(tx, calendarId);
  await assertPublishableLayers(tx, actor, calendarId, filter);
  const counted = await takeQuota(deps, tx, "views_per_calendar", calendar);
  const requested = input.slug ?? randomSlugSuffix(GENERATED_VIEW_SLUG_LENGTH);
  const slug = await claimSlug(tx, "view_slugs", { requested, name: input.name, ownerId: id });
  const view: ShareViewRecord = {
    id,
    calendar_id: calendarId,
    name: input.name,
    slug,
    filter,
    display: completeDisplay(input.display),
    created_at: now,
    updated_at: now,
    revoked_at: null,
  };
  const slugRecord: ViewSlugRecord = { owner_id: id, calendar_id: calendarId };
  tx.create(paths.view(calendarId, id), view);
  tx.create(paths.viewSlug(slug), slugRecord);
  writeCounter(tx, calendar.path, counted);
  return view;
}

export interface ViewPatch {
  name?: string;
  filter?: Partial<ViewFilter>;
  display?: Partial<ViewDisplay>;
}

/** PATCH: `filter` and `display` replace the whole object (omitted keys take their defaults). */
export async function updateView(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  viewId: string,
  patch: ViewPatch,
): Promise<ShareViewRecord> {
  const now = deps.clock().toISOString();
  const doc = await liveView(tx, actor, calendarId, viewId);
  const changes: Partial<ShareViewRecord> = {};
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.filter !== undefined) changes.filter = completeFilter(patch.filter);
  if (patch.display !== undefined) changes.display = completeDisplay(patch.display);
  if (changes.filter) await assertPublishableLayers(tx, actor, calendarId, changes.filter);
  if (Object.keys(changes).length === 0) return doc.data;
  const updated = { ...doc.data, ...changes, updated_at: now };
  tx.update(doc.path, { ...changes, updated_at: now });
  return updated;
}

/** DELETE: a tombstone; the slug stays reserved to it, so the address never shows anything else. */
export async function revokeView(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  viewId: string,
): Promise<ShareViewRecord> {
  const now = deps.clock().toISOString();
  const doc = await liveView(tx, actor, calendarId, viewId);
  const calendar = await readCalendar(tx, calendarId);
  tx.update(doc.path, { revoked_at: now, updated_at: now });
  writeCounter(tx, calendar.path, releaseQuota("views_per_calendar", calendar));
  return { ...doc.data, revoked_at: now, updated_at: now };
}
