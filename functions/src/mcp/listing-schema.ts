/**
 * The short form of an argument's JSON Schema for tools/list (docs/mcp.md#tool-list-size).
 * tools/list is read into a model's context at the start of every session, so it keeps what
 * tells a model what to send (types, enums, bounds, defaults, one-line descriptions) and drops
 * what only a validator needs. Nothing here weakens a call: every call is validated by its
 * REST operation, with the full zod schema, and /openapi.json keeps the full JSON Schema.
 */

type Json = Record<string, unknown>;

/**
 * Dropped keys: `examples` (the guides have them), regex `pattern`s and string lengths (the
 * description says the shape; REST's error says what to fix), `additionalProperties` of nested
 * objects (REST refuses unknown fields by name), `uniqueItems`.
 */
const DROPPED = new Set([
  "$schema",
  "examples",
  "pattern",
  "minLength",
  "maxLength",
  "additionalProperties",
  "uniqueItems",
]);

/** zod's bounds of a plain integer, which say nothing. */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

export function listingSchema(schema: Json): Json {
  const merged = Array.isArray(schema.anyOf) ? mergeUnion(schema) : schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(merged)) {
    if (DROPPED.has(key)) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INTEGER) continue;
    if (key === "description") out[key] = firstSentence(value as string);
    else if (key === "properties") out[key] = mapValues(value as Record<string, Json>, listingSchema);
    else if (key === "items" || key === "anyOf") out[key] = mapJson(value, listingSchema);
    else out[key] = value;
  }
  return out;
}

/**
 * `anyOf` of branches with a plain `type` each (zod's `.nullable()` is `anyOf: [X, {type:
 * "null"}]`) as one schema with a list of types: `{type: ["string", "null"]}`. Keywords that
 * apply to one type only (`items`, `enum`...) are kept, as JSON Schema ignores them for the
 * others; an `enum` gains `null` when null is allowed. A union whose branches share a keyword
 * with different values stays an `anyOf`.
 */
function mergeUnion(schema: Json): Json {
  const { anyOf, ...rest } = schema;
  const branches = flatten(anyOf as Json[]);
  const types: string[] = [];
  const merged: Json = {};
  for (const branch of branches) {
    const { type, ...keywords } = branch;
    if (typeof type !== "string") return schema;
    for (const [key, value] of Object.entries(keywords)) {
      if (key in merged && JSON.stringify(merged[key]) !== JSON.stringify(value)) return schema;
      merged[key] = value;
    }
    if (!types.includes(type)) types.push(type);
  }
  if (Array.isArray(merged.enum) && types.includes("null")) merged.enum = [...(merged.enum as unknown[]), null];
  return { type: types.length === 1 ? types[0] : types, ...merged, ...rest };
}

const flatten = (branches: Json[]): Json[] =>
  branches.flatMap((branch) =>
    Array.isArray(branch.anyOf) && Object.keys(branch).length === 1 ? flatten(branch.anyOf as Json[]) : [branch],
  );

/**
 * The first sentence of a description: a field's description in the route may go on for
 * /openapi.json's readers; tools/list carries its first line.
 */
export const firstSentence = (text: string): string => text.split(/(?<=[.!?])\s+(?=[A-Z`(])/, 1)[0].replace(/\.$/, "");

function mapJson(value: unknown, f: (schema: Json) => Json): unknown {
  if (Array.isArray(value)) return value.map((item) => mapJson(item, f));
  return typeof value === "object" && value !== null ? f(value as Json) : value;
}

const mapValues = (record: Record<string, Json>, f: (schema: Json) => Json): Record<string, Json> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));
