/**
 * Values from the schemas of the OpenAPI document: valid-looking ones (guided by the schema
 * and, for free-form strings, by the field's name) and hostile ones suited to each field.
 * Ids of records are `Lazy` references resolved against the world only when a request is
 * sent, so the same seed draws the same requests whatever ids the world has.
 */
import fc from "fast-check";
import type { Pools, World } from "./world.js";
import {
  NASTY_DATES,
  NASTY_NUMBERS,
  NASTY_TIMES,
  TIMEZONES_ODD,
  TIMEZONES_VALID,
  nastyString,
  plausibleDate,
  plausibleTime,
  wrongType,
} from "./values.js";

/** The subset of JSON Schema that zod-to-openapi emits for this API. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A value that depends on the world: a record's id, or a path built from one. */
export class Lazy {
  constructor(
    readonly make: (w: World) => string,
    readonly label: string,
  ) {}
}

export const pick = (pool: keyof Pools, i: number) =>
  new Lazy((w) => w.pools[pool][i % w.pools[pool].length], `<${pool}>`);

/** `calendarId` -> calendar, `eventId` -> event, `calendar_id` -> calendar, `agent_id` -> agent. */
export function poolOf(name: string): keyof Pools | null {
  const base = /^(\w+?)(?:Id|_id)$/.exec(name)?.[1];
  const pools: Record<string, keyof Pools> = {
    calendar: "calendar",
    event: "event",
    view: "view",
    layer: "layer",
    grant: "grant",
    request: "request",
    credential: "credential",
    agent: "agent",
  };
  return base ? (pools[base] ?? null) : null;
}

export const realId = (pool: keyof Pools) => fc.nat().map((i) => pick(pool, i));
const anyPool = fc.constantFrom<keyof Pools>(
  "calendar",
  "event",
  "view",
  "layer",
  "grant",
  "request",
  "credential",
  "agent",
);

/** Ids that must answer 404 in a path and 400 in a body: paths of other records, wrong kinds, suffixes. */
export const nastyIdValue = (pool: keyof Pools | null) =>
  fc.oneof(
    fc.nat().map((i) => new Lazy((w) => w.pools.recordPath[i % w.pools.recordPath.length], "<record path>")),
    fc.tuple(anyPool, fc.nat()).map(([p, i]) => pick(p, i)),
    fc
      .tuple(fc.nat(), fc.constantFrom("/", "/..", "/.", "/x", "..", " ", "\u0000", "\u200b", "%2F"))
      .map(
        ([i, suffix]) =>
          new Lazy(
            (w) => (pool ? w.pools[pool][i % w.pools[pool].length] + suffix : `cal_x${suffix}`),
            `<id>${suffix}`,
          ),
      ),
    nastyString,
  );

/** Valid-looking values guided by the schema and, for free-form strings, the field's name. */
export function validValue(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nonNull = types.filter((t) => t !== "null");
  const inner = validNonNull(schema, nonNull[0], name);
  return types.includes("null")
    ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: inner })
    : inner;
}

function validNonNull(schema: JsonSchema, type: string | undefined, name: string): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const pool = poolOf(name);
  if (pool) return realId(pool);
  if (/^(date|from|to|starts|until)$/.test(name)) return plausibleDate;
  if (/_time$/.test(name)) return plausibleTime;
  if (name === "timezone") return fc.constantFrom(...TIMEZONES_VALID);
  if (name === "art") return fc.constantFrom("🎉", "📅", "https://example.com/art.png", "Q4");
  if (name === "cursor") return forgedCursor;
  if (name === "recur") return validRecur;
  switch (type) {
    case "string":
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc
        .string({ minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 40, 40) })
        .filter((s) => s.trim().length > 0);
    case "integer":
    case "number":
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 31, 1000) });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(validValue(schema.items ?? {}, singular(name)), {
        minLength: schema.minItems ?? 0,
        maxLength: 4,
      });
    case "object":
      return objectOf(schema, false);
    default:
      // Unconstrained (`{}`): anything JSON.
      return fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }));
  }
}

export const singular = (name: string) => ({ layers: "key", categories: "category", views: "view" })[name] ?? name;

/** A value for any field: mostly valid-looking, sometimes hostile in a way that suits the field. */
export function hostileValue(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  const specific: fc.Arbitrary<unknown>[] = [nastyString, wrongType, fc.constantFrom(...NASTY_NUMBERS)];
  if (/^(date|from|to|starts|until)$/.test(name)) specific.push(fc.constantFrom(...NASTY_DATES));
  if (/_time$/.test(name)) specific.push(fc.constantFrom(...NASTY_TIMES));
  if (name === "timezone") specific.push(fc.constantFrom(...TIMEZONES_ODD));
  if (name === "art")
    specific.push(
      fc.constantFrom(
        "javascript:alert(1)",
        "http://example.com/a.png",
        "data:text/html,x",
        "https://",
        "https://exa mple.com",
        "JAVASCRIPT:x",
        " https://example.com/x.png",
      ),
    );
  if (poolOf(name)) specific.push(nastyIdValue(poolOf(name)));
  if (schema.enum)
    specific.push(
      fc.constantFrom(...schema.enum.filter((v) => typeof v === "string").map((v) => ` ${String(v).toUpperCase()}`)),
    );
  return fc.oneof(...specific);
}

function fieldValue(schema: JsonSchema, name: string, hostile: boolean): fc.Arbitrary<unknown> {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") && schema.properties) {
    // Recurse so nested fields (an event's `recur`, a view's `filter`) get hostile leaves too.
    const nested = objectOf(schema, hostile);
    const withNull = types.includes("null")
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: nested })
      : nested;
    return hostile
      ? fc.oneof({ weight: 4, arbitrary: withNull }, { weight: 1, arbitrary: hostileValue(schema, name) })
      : withNull;
  }
  if (types.includes("array") && schema.items && hostile) {
    return fc.oneof(
      { weight: 3, arbitrary: validValue(schema, name) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.oneof(validValue(schema.items, singular(name)), hostileValue(schema.items, singular(name))),
          { maxLength: 6 },
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          [],
          Array.from({ length: 1000 }, (_, i) => `k${i}`),
          ["design", "design"],
        ),
      },
      { weight: 1, arbitrary: hostileValue(schema, name) },
    );
  }
  if (!hostile) return validValue(schema, name);
  return fc.oneof(
    { weight: 3, arbitrary: validValue(schema, name) },
    { weight: 1, arbitrary: hostileValue(schema, name) },
  );
}

const UNKNOWN_FIELDS = [
  "title",
  "id",
  "calendar_id",
  "created_at",
  "owner",
  "role",
  "admin",
  "__proto__",
  "constructor",
  "",
  " ",
  "name ",
  "NAME",
  "\u0000",
  "x".repeat(500),
];

export function objectOf(schema: JsonSchema, hostile: boolean): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, sub]) => [key, fieldValue(sub, key, hostile)]),
  );
  const base = fc.record(shape, { requiredKeys: schema.required ?? [] });
  if (!hostile) return base;
  const extras = fc.array(fc.tuple(fc.constantFrom(...UNKNOWN_FIELDS), fc.oneof(nastyString, wrongType)), {
    minLength: 1,
    maxLength: 2,
  });
  return fc.tuple(base, extras, fc.nat(9)).map(([obj, extra, dice]) => {
    const out: Record<string, unknown> = { ...obj };
    // One time in ten a required field is missing; three in ten an unknown field comes along.
    if (dice === 0) for (const key of schema.required ?? []) delete out[key];
    if (dice > 6)
      for (const [key, value] of extra)
        Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
    return out;
  });
}

/** Cursors shaped like real ones (base64url JSON sort keys) but not given out by the API. */
const forgedCursor = fc.oneof(
  fc
    .tuple(fc.nat(3), plausibleDate, fc.string({ maxLength: 5 }))
    .map(([g, d, s]) => b64([g, d, s, "2026-11-22T10:00:00.000Z", `evt_${s}`])),
  fc.tuple(plausibleDate, fc.string({ maxLength: 30 })).map(([d, s]) => b64([`${d}T00:00:00.000Z`, s])),
  fc.constantFrom(
    b64(["x"]),
    b64({ a: 1 }),
    b64("x".repeat(600)),
    b64([0, "\u0000", "", "", "../x"]),
    b64(JSON.parse("[".repeat(1000) + "]".repeat(1000))),
    "====",
    "%ZZ",
    "!!",
    "",
  ),
  fc.string({ maxLength: 40 }),
);
function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Recurrences the rules accept, mostly: day and month in range for the type (domain/events/rules.ts). */
const validRecur = fc.oneof(
  fc.record({ type: fc.constant("daily"), interval: fc.integer({ min: 1, max: 5 }) }, { requiredKeys: ["type"] }),
  fc.record(
    { type: fc.constant("weekly"), day: fc.integer({ min: 0, max: 7 }), interval: fc.integer({ min: 1, max: 4 }) },
    { requiredKeys: ["type", "day"] },
  ),
  fc.record(
    { type: fc.constant("monthly"), day: fc.integer({ min: 1, max: 31 }), starts: plausibleDate, until: plausibleDate },
    { requiredKeys: ["type", "day"] },
  ),
  fc.record(
    { type: fc.constant("yearly"), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) },
    { requiredKeys: ["type", "month", "day"] },
  ),
);

/**
 * A body the rules accept, mostly: for events, `date` or `recur` or neither (someday) and an
 * end after the start (domain/events/rules.ts), which independent fields rarely satisfy.
 */
export function cleanBodyArb(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const base = objectOf(schema, false);
  const props = schema.properties ?? {};
  if (!("recur" in props && "date" in props && "start_time" in props)) return base;
  const when = fc.oneof(
    plausibleDate.map((date) => ({ date, recur: null })),
    validRecur.map((recur) => ({ recur, date: null })),
    fc.constant({ date: null, recur: null }),
  );
  const times = fc.oneof(
    fc.constant({ start_time: null, end_time: null }),
    fc.tuple(fc.integer({ min: 0, max: 1438 }), fc.integer({ min: 1, max: 600 })).map(([start, length]) => ({
      start_time: hhmm(start),
      end_time: hhmm(Math.min(start + length, 1439)),
    })),
    plausibleTime.map((start_time) => ({ start_time, end_time: null })),
  );
  return fc.tuple(base, when, times).map(([fields, w, t]) => ({ ...fields, ...w, ...t }));
}
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** `from` and `to` a plausible distance apart: mostly within the 366 days occurrences allow, sometimes just past. */
export const dateRange = fc
  .tuple(plausibleDate, fc.oneof(fc.integer({ min: 0, max: 120 }), fc.constantFrom(364, 365, 366, 367)))
  .map(([from, days]) => {
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    return [from, to] as const;
  });

/** One hostile value at one place in a body: a field, a nested field, or an unknown field. */
export interface FieldMutation {
  path: string[];
  value: unknown;
}

export function fieldMutationArb(schema: JsonSchema): fc.Arbitrary<FieldMutation> {
  const leaves: Array<{ path: string[]; schema: JsonSchema }> = [];
  const walk = (node: JsonSchema, path: string[]) => {
    for (const [key, sub] of Object.entries(node.properties ?? {})) {
      leaves.push({ path: [...path, key], schema: sub });
      if (sub.properties && path.length < 2) walk(sub, [...path, key]);
    }
  };
  walk(schema, []);
  const known = leaves.map((leaf) =>
    hostileValue(leaf.schema, leaf.path[leaf.path.length - 1]).map((value) => ({ path: leaf.path, value })),
  );
  const unknown = fc
    .tuple(fc.constantFrom(...UNKNOWN_FIELDS), fc.oneof(nastyString, wrongType))
    .map(([key, value]) => ({ path: [key], value }));
  // A body with no fields (`POST .../rotate-secret`) can only gain unknown ones.
  if (known.length === 0) return unknown;
  return fc.oneof({ weight: 5, arbitrary: fc.oneof(...known) }, { weight: 1, arbitrary: unknown });
}

/** The body with one value replaced (intermediate objects created as needed); the body itself is not changed. */
export function applyMutation(body: unknown, mutation: FieldMutation): unknown {
  const root: Record<string, unknown> = isObject(body) ? { ...body } : {};
  let node = root;
  mutation.path.forEach((key, i) => {
    if (i === mutation.path.length - 1) {
      Object.defineProperty(node, key, { value: mutation.value, enumerable: true, configurable: true, writable: true });
      return;
    }
    const next = isObject(node[key]) ? { ...(node[key] as Record<string, unknown>) } : {};
    node[key] = next;
    node = next;
  });
  return root;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
