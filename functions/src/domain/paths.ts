import type { CollectionRef, DocRef, Layout } from "../storage/port.js";
import { errors } from "./errors.js";
import { isIdOf, type IdPrefix } from "./ids.js";
import type {
  AccessRequestRecord,
  AgentRecord,
  AlarmQueueRecord,
  AlarmRequeueRecord,
  CalendarPurgeRecord,
  ChangeRecord,
  CalendarRecord,
  ClaimRecord,
  CredentialRecord,
  EventRecord,
  ExceptionRecord,
  GrantRecord,
  HostLinkRecord,
  IdempotencyRecord,
  LayerRecord,
  MembershipRecord,
  OnboardTokenRecord,
  PendingRequestRecord,
  ServerSecretRecord,
  ShardRecord,
  ShareViewRecord,
  SlugRecord,
  TokenRecord,
  ViewSlugRecord,
} from "./records.js";
import type { AlarmBackfillRecord, AlarmHeadRecord, AlarmTenantRecord } from "./alarms/records.js";
import type { FeedRecord } from "./feeds/records.js";
import type {
  DeliveryQueueRecord,
  WebhookOutboxRecord,
  WebhookRecord,
  WebhookStreamRecord,
} from "./webhooks/records.js";
import type {
  OAuthClientRecord,
  OAuthCodeRecord,
  OAuthGrantRecord,
  OAuthRefreshRecord,
  OAuthRequestRecord,
} from "./oauth/records.js";

/**
 * Where each record lives in the document store, and the only place references are built:
 * each is a `DocRef` or `CollectionRef` of the record its collection holds (RecordIn), so the
 * port's reads return that record and its writes require it. Every global lookup is a read by id.
 *
 * Each builder checks every id it puts into a path: an id is its prefix and [A-Za-z0-9]
 * (domain/ids.ts), a hash 64 hex digits, a slug [a-z0-9-]. Anything else (a `/`, `..`, an id of
 * another kind) throws `errors.invalidId` (domain/errors.ts), a 404 not_found: such a record
 * cannot exist. The adapters check each path against LAYOUT once more
 * (storage/paths-guard.ts).
 */

/**
 * Every collection of the store, named by its collection names with the ids left out
 * (`calendars/events` for `calendars/{id}/events`), and the record it holds (domain/records.ts).
 */
export interface RecordIn {
  agents: AgentRecord;
  "agents/credentials": CredentialRecord;
  "agents/memberships": MembershipRecord;
  tokens: TokenRecord;
  onboard_tokens: OnboardTokenRecord;
  claims: ClaimRecord;
  idempotency: IdempotencyRecord;
  calendars: CalendarRecord;
  slugs: SlugRecord;
  view_slugs: ViewSlugRecord;
  "calendars/events": EventRecord;
  "calendars/exceptions": ExceptionRecord;
  "calendars/grants": GrantRecord;
  "calendars/access_requests": AccessRequestRecord;
  "calendars/pending_requests": PendingRequestRecord;
  "calendars/views": ShareViewRecord;
  "calendars/layers": LayerRecord;
  "calendars/hosts": HostLinkRecord;
  "calendars/shards": ShardRecord;
  "calendars/shards/changes": ChangeRecord;
  alarm_queue: AlarmQueueRecord;
  alarm_heads: AlarmHeadRecord;
  alarm_tenants: AlarmTenantRecord;
  alarm_backfills: AlarmBackfillRecord;
  alarm_requeues: AlarmRequeueRecord;
  calendar_purges: CalendarPurgeRecord;
  feeds: FeedRecord;
  server_secrets: ServerSecretRecord;
  webhooks: WebhookRecord;
  "calendars/webhook_streams": WebhookStreamRecord;
  webhook_outbox: WebhookOutboxRecord;
  delivery_queue: DeliveryQueueRecord;
  oauth_clients: OAuthClientRecord;
  oauth_requests: OAuthRequestRecord;
  oauth_codes: OAuthCodeRecord;
  oauth_refresh_tokens: OAuthRefreshRecord;
  "agents/oauth_grants": OAuthGrantRecord;
}
type Shape = keyof RecordIn;

/** The same collections at run time: `satisfies` fails the build when this list and RecordIn differ. */
const SHAPES = {
  agents: true,
  "agents/credentials": true,
  "agents/memberships": true,
  tokens: true,
  onboard_tokens: true,
  claims: true,
  idempotency: true,
  calendars: true,
  slugs: true,
  view_slugs: true,
  "calendars/events": true,
  "calendars/exceptions": true,
  "calendars/grants": true,
  "calendars/access_requests": true,
  "calendars/pending_requests": true,
  "calendars/views": true,
  "calendars/layers": true,
  "calendars/hosts": true,
  "calendars/shards": true,
  "calendars/shards/changes": true,
  alarm_queue: true,
  alarm_heads: true,
  alarm_tenants: true,
  alarm_backfills: true,
  alarm_requeues: true,
  calendar_purges: true,
  feeds: true,
  server_secrets: true,
  webhooks: true,
  "calendars/webhook_streams": true,
  webhook_outbox: true,
  delivery_queue: true,
  oauth_clients: true,
  oauth_requests: true,
  oauth_codes: true,
  oauth_refresh_tokens: true,
  "agents/oauth_grants": true,
} satisfies Record<Shape, true>;

export const COLLECTIONS: readonly string[] = Object.keys(SHAPES);

export const LAYOUT: Layout = new Set<string>(COLLECTIONS);

const KIND: Record<IdPrefix, string> = {
  agt: "agent",
  cal: "calendar",
  evt: "event",
  grt: "grant",
  areq: "access request",
  viw: "share view",
  lyr: "layer",
  cred: "credential",
  whk: "webhook",
};

const id = (prefix: IdPrefix, value: string): string => {
  if (!isIdOf(prefix, value)) throw errors.invalidId(KIND[prefix]);
  return value;
};

const HASH = /^[0-9a-f]{64}$/;
const hash = (value: string): string => {
  if (!HASH.test(value)) throw errors.invalidId("record");
  return value;
};

/** Calendar and view slugs as stored: lower-case letters, digits and hyphens. */
const SLUG = /^[a-z0-9-]{1,128}$/;
const slug = (value: string): string => {
  if (!SLUG.test(value)) throw errors.invalidId("calendar");
  return value;
};

/** An exception's key: its event's id and its original date, `evt_x_20270328`, one path segment. */
export const exceptionKey = (eventId: string, originalDate: string): string => {
  const compact = originalDate.replaceAll("-", "");
  if (!/^\d{8}$/.test(compact) || originalDate.length !== 10) throw errors.invalidId("occurrence");
  return `${id("evt", eventId)}_${compact}`;
};

const shardNumber = (n: number): string => {
  if (!Number.isInteger(n) || n < 0 || n > 255) throw errors.invalidId("record");
  return String(n);
};

/** An alarm tenant: the agent a calendar belongs to, or the calendar itself (domain/alarms/lanes.ts). */
const tenantId = (value: string): string => {
  if (!isIdOf("agt", value) && !isIdOf("cal", value)) throw errors.invalidId("record");
  return value;
};

const laneNumber = (n: number): string => {
  if (!Number.isInteger(n) || n < 0 || n > 63) throw errors.invalidId("record");
  return String(n);
};

const changeNumber = (seq: number): string => {
  if (!Number.isSafeInteger(seq) || seq < 1) throw errors.invalidId("record");
  return String(seq);
};

/** `calendars/events` with ids [c, e] is `calendars/c/events/e`; with [c] the collection `calendars/c/events`. */
function interleave(shape: Shape, ids: string[], isDoc: boolean): string {
  const names = shape.split("/");
  if (ids.length !== (isDoc ? names.length : names.length - 1)) throw new Error(`${shape}: wrong number of ids`);
  return names.flatMap((name, i) => (i < ids.length ? [name, ids[i]] : [name])).join("/");
}

// The only casts to a reference: the shape names the collection, RecordIn its record.
const doc = <S extends Shape>(shape: S, ...ids: string[]) => interleave(shape, ids, true) as DocRef<RecordIn[S]>;
const collection = <S extends Shape>(shape: S, ...ids: string[]) =>
  interleave(shape, ids, false) as CollectionRef<RecordIn[S]>;

export const paths = {
  agents: () => collection("agents"),
  agent: (agentId: string) => doc("agents", id("agt", agentId)),
  credentials: (agentId: string) => collection("agents/credentials", id("agt", agentId)),
  credential: (agentId: string, credentialId: string) =>
    doc("agents/credentials", id("agt", agentId), id("cred", credentialId)),
  memberships: (agentId: string) => collection("agents/memberships", id("agt", agentId)),
  membership: (agentId: string, calendarId: string) =>
    doc("agents/memberships", id("agt", agentId), id("cal", calendarId)),
  tokens: () => collection("tokens"),
  token: (tokenHash: string) => doc("tokens", hash(tokenHash)),
  onboardToken: (tokenHash: string) => doc("onboard_tokens", hash(tokenHash)),
  claims: () => collection("claims"),
  claim: (tokenHash: string) => doc("claims", hash(tokenHash)),
  idempotency: (keyHash: string) => doc("idempotency", hash(keyHash)),
  calendars: () => collection("calendars"),
  calendar: (calendarId: string) => doc("calendars", id("cal", calendarId)),
  slugs: () => collection("slugs"),
  slug: (value: string) => doc("slugs", slug(value)),
  events: (calendarId: string) => collection("calendars/events", id("cal", calendarId)),
  event: (calendarId: string, eventId: string) => doc("calendars/events", id("cal", calendarId), id("evt", eventId)),
  exceptions: (calendarId: string) => collection("calendars/exceptions", id("cal", calendarId)),
  exception: (calendarId: string, eventId: string, originalDate: string) =>
    doc("calendars/exceptions", id("cal", calendarId), exceptionKey(eventId, originalDate)),
  grants: (calendarId: string) => collection("calendars/grants", id("cal", calendarId)),
  grant: (calendarId: string, grantId: string) => doc("calendars/grants", id("cal", calendarId), id("grt", grantId)),
  accessRequests: (calendarId: string) => collection("calendars/access_requests", id("cal", calendarId)),
  accessRequest: (calendarId: string, requestId: string) =>
    doc("calendars/access_requests", id("cal", calendarId), id("areq", requestId)),
  pendingRequests: (calendarId: string) => collection("calendars/pending_requests", id("cal", calendarId)),
  pendingRequest: (calendarId: string, agentId: string) =>
    doc("calendars/pending_requests", id("cal", calendarId), id("agt", agentId)),
  views: (calendarId: string) => collection("calendars/views", id("cal", calendarId)),
  view: (calendarId: string, viewId: string) => doc("calendars/views", id("cal", calendarId), id("viw", viewId)),
  viewSlug: (value: string) => doc("view_slugs", slug(value)),
  layers: (calendarId: string) => collection("calendars/layers", id("cal", calendarId)),
  layer: (calendarId: string, layerId: string) => doc("calendars/layers", id("cal", calendarId), id("lyr", layerId)),
  /** Reverse links: the calendars a calendar is attached to as a layer. */
  hosts: (calendarId: string) => collection("calendars/hosts", id("cal", calendarId)),
  host: (calendarId: string, hostId: string) => doc("calendars/hosts", id("cal", calendarId), id("cal", hostId)),
  /** Where event writes keep a calendar's revision and event count (domain/revision.ts). */
  shards: (calendarId: string) => collection("calendars/shards", id("cal", calendarId)),
  shard: (calendarId: string, n: number) => doc("calendars/shards", id("cal", calendarId), shardNumber(n)),
  /** The changes numbered on one shard (domain/commands/changes.ts), by their number. */
  changes: (calendarId: string, n: number) =>
    collection("calendars/shards/changes", id("cal", calendarId), shardNumber(n)),
  change: (calendarId: string, n: number, seq: number) =>
    doc("calendars/shards/changes", id("cal", calendarId), shardNumber(n), changeNumber(seq)),
  /** The next alarms of every event, top-level: a tick finds the due ones lane by lane (domain/alarms/lanes.ts). */
  alarmQueue: () => collection("alarm_queue"),
  alarmQueueEntry: (calendarId: string, eventId: string) =>
    doc("alarm_queue", `${id("cal", calendarId)}-${id("evt", eventId)}`),
  /** One lane of a calendar's queue entries, by when the tick next takes it (domain/alarms/lanes.ts). */
  alarmHeads: () => collection("alarm_heads"),
  alarmHead: (calendarId: string, lane: number) => doc("alarm_heads", `${id("cal", calendarId)}-${laneNumber(lane)}`),
  /** One tenant's heads, by when the tick next takes the tenant (domain/alarms/lanes.ts). */
  alarmTenants: () => collection("alarm_tenants"),
  alarmTenant: (tenant: string) => doc("alarm_tenants", tenantId(tenant)),
  /** How far the pass giving entries from before lanes their lane has come (domain/alarms/backfill.ts). */
  alarmBackfill: () => doc("alarm_backfills", "lanes"),
  /** Calendars whose timezone changed: their alarm queue entries are due again (domain/alarms/requeue.ts). */
  alarmRequeues: () => collection("alarm_requeues"),
  alarmRequeue: (calendarId: string) => doc("alarm_requeues", id("cal", calendarId)),
  /** Deleted calendars whose documents are still to be removed (domain/purge/). */
  calendarPurges: () => collection("calendar_purges"),
  calendarPurge: (calendarId: string) => doc("calendar_purges", id("cal", calendarId)),
  /** Outside feeds shown as layers, by when their next fetch falls due (domain/feeds, jobs/feeds.ts). */
  feeds: () => collection("feeds"),
  feed: (feedCalendarId: string) => doc("feeds", id("cal", feedCalendarId)),
  /** A key the service signs with, by what it signs (records.ts ServerSecretRecord). */
  serverSecret: (name: "change_cursors") => doc("server_secrets", name),
  /** Every agent's webhooks, top-level: a delivery pass finds the enabled ones with one query. */
  webhooks: () => collection("webhooks"),
  webhook: (webhookId: string) => doc("webhooks", id("whk", webhookId)),
  /**
   * Where delivery of one calendar to one webhook stands (domain/webhooks/records.ts), under the
   * calendar: a write's fan-out finds the streams that follow it with one query in one parent.
   */
  calendarWebhookStreams: (calendarId: string) => collection("calendars/webhook_streams", id("cal", calendarId)),
  webhookStream: (webhookId: string, calendarId: string) =>
    doc("calendars/webhook_streams", id("cal", calendarId), id("whk", webhookId)),
  /** Calendar shards with changes not yet fanned out to their streams, by when (jobs/webhooks/). */
  webhookOutbox: () => collection("webhook_outbox"),
  webhookOutboxEntry: (calendarId: string, n: number) =>
    doc("webhook_outbox", `${id("cal", calendarId)}-${shardNumber(n)}`),
  /** Streams with deliveries waiting or a retry pending, by when they fall due (jobs/webhooks/). */
  deliveryQueue: () => collection("delivery_queue"),
  deliveryQueueEntry: (webhookId: string, calendarId: string) =>
    doc("delivery_queue", `${id("whk", webhookId)}-${id("cal", calendarId)}`),
  /** The authorization server of /mcp (domain/oauth/records.ts): clients and secrets by their SHA-256. */
  oauthClient: (clientIdHash: string) => doc("oauth_clients", hash(clientIdHash)),
  oauthRequest: (requestId: string) => doc("oauth_requests", hash(requestId)),
  oauthCode: (codeHash: string) => doc("oauth_codes", hash(codeHash)),
  oauthRefreshToken: (tokenHash: string) => doc("oauth_refresh_tokens", hash(tokenHash)),
  oauthGrants: (agentId: string) => collection("agents/oauth_grants", id("agt", agentId)),
  oauthGrant: (agentId: string, credentialId: string) =>
    doc("agents/oauth_grants", id("agt", agentId), id("cred", credentialId)),
};
