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

/** Between the fields of an object argument's line; a nested field's description never holds it. */
export const FIELD_SEPARATOR = "; ";

/** An argument's schema as tools/list shows it; an object argument's fields become its description. */
export function listingSchema(schema: Json): Json {
  const merged = Array.isArray(schema.anyOf) ? mergeUnion(schema) : schema;
  if (typeof merged.properties !== "object") return shortForm(merged);
  const { properties, required, ...rest } = merged;
  return { ...shortForm(rest), description: objectLine(merged, properties as Record<string, Json>, required) };
}

function shortForm(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INTEGER) continue;
    if (key === "items" || key === "anyOf") out[key] = mapJson(value, (item) => shortForm(mergeUnion(item)));
    else out[key] = value;
  }
  return out;
}

/**
 * An object argument (`recur`, a view's `filter`) in one line: its description, then each field
 * as `name: description`, `?` after the name of an optional one, its enum and default after:
 * `The rule of a series: {type: Period (daily|weekly|monthly|yearly); interval?: Every n-th
 * period, default 1; ...}`. A field's JSON Schema costs more than its text; the model reads the
 * line as well, and a wrong field is refused by REST with what to send.
 */
function objectLine(schema: Json, properties: Record<string, Json>, required: unknown): string {
  const mandatory = new Set(Array.isArray(required) ? (required as string[]) : []);
  const fields = Object.entries(properties).map(([name, field]) => {
    const merged = mergeUnion(field);
    const items = merged.items as Json | undefined;
    const values = enumText(merged.enum) ?? enumText(items?.enum, "list of ");
    return [
      `${name}${mandatory.has(name) ? "" : "?"}: ${String(merged.description)}`,
      values ? ` (${values})` : "",
      merged.default !== undefined ? `, default ${JSON.stringify(merged.default)}` : "",
    ].join("");
  });
  return `${String(schema.description)}: {${fields.join(FIELD_SEPARATOR)}}`;
}

const enumText = (values: unknown, prefix = ""): string | undefined =>
  Array.isArray(values) ? prefix + values.filter((value) => value !== null).join("|") : undefined;

/**
 * `anyOf` of branches with a plain `type` each (zod's `.nullable()` is `anyOf: [X, {type:
 * "null"}]`) as one schema with a list of types: `{type: ["string", "null"]}`. Keywords that
 * apply to one type only (`items`, `enum`...) are kept, as JSON Schema ignores them for the
 * others; an `enum` gains `null` when null is allowed. A union whose branches share a keyword
 * with different values stays an `anyOf`.
 */
function mergeUnion(schema: Json): Json {
  if (!Array.isArray(schema.anyOf)) return schema;
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

function mapJson(value: unknown, f: (schema: Json) => Json): unknown {
  if (Array.isArray(value)) return value.map((item) => mapJson(item, f));
  return typeof value === "object" && value !== null ? f(value as Json) : value;
}
