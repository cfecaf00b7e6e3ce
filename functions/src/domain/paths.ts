import type { CollectionPath, DocPath, Layout } from "../storage/port.js";
import { errors } from "./errors.js";
import { isIdOf, type IdPrefix } from "./ids.js";

/**
 * Where each record lives in the document store, and the only place paths are built. Every
 * global lookup is a read by id.
 *
 * Each builder checks every id it puts into a path: an id is its prefix and [A-Za-z0-9]
 * (domain/ids.ts), a hash 64 hex digits, a slug [a-z0-9-]. Anything else (a `/`, `..`, an id of
 * another kind) throws `errors.invalidId` (domain/errors.ts), a 404 not_found: such a record
 * cannot exist. The adapters check each path against LAYOUT once more
 * (storage/paths-guard.ts).
 */

/** Every collection of the store, named by its collection names with the ids left out. */
export const COLLECTIONS = [
  "agents",
  "agents/credentials",
  "agents/memberships",
  "tokens",
  "onboard_tokens",
  "claims",
  "idempotency",
  "calendars",
  "slugs",
  "view_slugs",
  "calendars/events",
  "calendars/grants",
  "calendars/access_requests",
  "calendars/pending_requests",
  "calendars/views",
  "calendars/layers",
  "calendars/hosts",
  "calendars/shards",
] as const;

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

const shardNumber = (n: number): string => {
  if (!Number.isInteger(n) || n < 0 || n > 255) throw errors.invalidId("record");
  return String(n);
};

const doc = (...segments: string[]): DocPath => segments.join("/") as DocPath;
const collection = (...segments: string[]): CollectionPath => segments.join("/") as CollectionPath;

export const paths = {
  agents: () => collection("agents"),
  agent: (agentId: string) => doc("agents", id("agt", agentId)),
  credentials: (agentId: string) => collection("agents", id("agt", agentId), "credentials"),
  credential: (agentId: string, credentialId: string) =>
    doc("agents", id("agt", agentId), "credentials", id("cred", credentialId)),
  memberships: (agentId: string) => collection("agents", id("agt", agentId), "memberships"),
  membership: (agentId: string, calendarId: string) =>
    doc("agents", id("agt", agentId), "memberships", id("cal", calendarId)),
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
  events: (calendarId: string) => collection("calendars", id("cal", calendarId), "events"),
  event: (calendarId: string, eventId: string) => doc("calendars", id("cal", calendarId), "events", id("evt", eventId)),
  grants: (calendarId: string) => collection("calendars", id("cal", calendarId), "grants"),
  grant: (calendarId: string, grantId: string) => doc("calendars", id("cal", calendarId), "grants", id("grt", grantId)),
  accessRequests: (calendarId: string) => collection("calendars", id("cal", calendarId), "access_requests"),
  accessRequest: (calendarId: string, requestId: string) =>
    doc("calendars", id("cal", calendarId), "access_requests", id("areq", requestId)),
  pendingRequest: (calendarId: string, agentId: string) =>
    doc("calendars", id("cal", calendarId), "pending_requests", id("agt", agentId)),
  views: (calendarId: string) => collection("calendars", id("cal", calendarId), "views"),
  view: (calendarId: string, viewId: string) => doc("calendars", id("cal", calendarId), "views", id("viw", viewId)),
  viewSlug: (value: string) => doc("view_slugs", slug(value)),
  layers: (calendarId: string) => collection("calendars", id("cal", calendarId), "layers"),
  layer: (calendarId: string, layerId: string) => doc("calendars", id("cal", calendarId), "layers", id("lyr", layerId)),
  /** Reverse links: the calendars a calendar is attached to as a layer. */
  hosts: (calendarId: string) => collection("calendars", id("cal", calendarId), "hosts"),
  host: (calendarId: string, hostId: string) => doc("calendars", id("cal", calendarId), "hosts", id("cal", hostId)),
  /** Where event writes keep a calendar's revision and event count (domain/revision.ts). */
  shards: (calendarId: string) => collection("calendars", id("cal", calendarId), "shards"),
  shard: (calendarId: string, n: number) => doc("calendars", id("cal", calendarId), "shards", shardNumber(n)),
};
