/**
 * MCP tools derived from the route definitions (docs/api.md#mcp): one tool per API
 * operation, its arguments the operation's path parameters, query parameters and body fields
 * flattened into one object, its input schema the JSON Schema of the same zod schemas that
 * validate the REST request. No SDK import here: the tool list is plain data, built once per
 * process when /mcp is first used.
 *
 * No outputSchema: a result is the API's JSON answer as text, which every MCP client shows
 * the model, and /openapi.json describes it. Declaring one would oblige each result to carry
 * the same JSON a second time as structuredContent: parsed, serialized and sent twice, which
 * measured at about a third of a list_occurrences call's CPU time.
 */
import { z } from "zod";
import type { AnyRoute } from "../http/route.js";
import { TOOL_CATALOG, operationKey, type ListArgument, type ToolEntry, type ToolsetName } from "./catalog.js";
import { listingSchema } from "./listing-schema.js";

type JsonSchema = Record<string, unknown>;

/** A JSON Schema of an object, as MCP wants a tool's input. */
export interface ObjectSchema {
  [key: string]: unknown;
  type: "object";
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** What tools/list shows of a tool. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  annotations: Annotations;
}

/**
 * The hints whose value differs from MCP's default (readOnly false, destructive true,
 * idempotent false, openWorld true): a missing hint means the default, and a read's other
 * hints mean nothing. openWorld keeps its default: what the tools write is read by other
 * agents, public pages, feeds and webhook receivers, and the webhook tools call outside URLs.
 */
export type Annotations = { readOnlyHint?: true; destructiveHint?: false; idempotentHint?: true };

/** A tool and where each of its arguments goes in the REST request. */
export interface Tool {
  listed: ListedTool;
  toolset: ToolsetName;
  /** Sent after a successful result's JSON (catalog.ts). */
  resultNote?: string;
  route: AnyRoute;
  /** Each path parameter and the argument that carries it (mostly the same name). */
  pathParams: Array<{ param: string; argument: string }>;
  queryKeys: ReadonlySet<string>;
  /** The body fields, by the argument that carries each (mostly the same name). */
  bodyFields: ReadonlyMap<string, string>;
}

/** The argument of every POST tool that names its Idempotency-Key (mcp/idempotency.ts). */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

// Once per POST tool, so one line; what a key without it is: docs/mcp.md#idempotency-key-per-call.
const idempotencyArgument: JsonSchema = {
  type: "string",
  description: "Retry key: replays the first answer",
};

/** The tools of these routes, in their order; routes without a catalog entry have none (a test fails). */
export function buildTools(routes: readonly AnyRoute[]): Tool[] {
  const tools = routes.flatMap((route) => {
    const entry = TOOL_CATALOG[operationKey(route.method, route.path)];
    return entry ? [toolOf(route, entry)] : [];
  });
  const names = new Set<string>();
  for (const { listed } of tools) {
    if (names.has(listed.name)) throw new Error(`two operations share the MCP tool name ${listed.name}`);
    names.add(listed.name);
  }
  return tools;
}

function toolOf(route: AnyRoute, entry: ToolEntry): Tool {
  const { name, pathArguments = {}, bodyArguments = {}, listArguments = {}, refusedFields = [] } = entry;
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, param]) => ({
    param,
    argument: pathArguments[param] ?? param,
  }));
  const params = objectSchema(route.params);
  const query = objectSchema(route.query);
  const body = objectSchema(route.body);
  const bodyFields = new Map(
    Object.keys(body?.properties ?? {})
      .filter((field) => !refusedFields.includes(field))
      .map((field) => [bodyArguments[field] ?? field, field]),
  );
  for (const field of refusedFields) {
    if (!body?.properties[field]) throw new Error(`${name}: refused field \`${field}\` is no body field`);
  }
  const queryArguments = { ...query?.properties };
  for (const [key, list] of Object.entries(listArguments)) {
    if (!(key in queryArguments)) throw new Error(`${name}: list argument \`${key}\` is no query parameter`);
    queryArguments[key] = listSchema(list);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (schemas: Record<string, JsonSchema>, isRequired: (key: string) => boolean) => {
    for (const [key, schema] of Object.entries(schemas)) {
      if (key in properties)
        throw new Error(`${name}: \`${key}\` is more than one of path parameter, query or body field`);
      properties[key] = listingSchema(schema);
      if (isRequired(key)) required.push(key);
    }
  };
  // Path parameters are always required, also where the route declares no params schema.
  add(
    Object.fromEntries(
      pathParams.map(({ param, argument }) => [argument, params?.properties[param] ?? { type: "string" }]),
    ),
    () => true,
  );
  add(queryArguments, (key) => query?.required?.includes(key) ?? false);
  // A body the route lets the caller omit has no required field as a tool argument either.
  add(
    Object.fromEntries([...bodyFields].map(([argument, field]) => [argument, body!.properties[field]])),
    (argument) => !route.bodyOptional && (body?.required?.includes(bodyFields.get(argument)!) ?? false),
  );
  if (route.method === "post") add({ [IDEMPOTENCY_ARGUMENT]: idempotencyArgument }, () => false);

  return {
    listed: {
      name,
      title: entry.title,
      description: describe(entry),
      inputSchema: {
        type: "object",
        properties,
        // No `additionalProperties: false`: the operation refuses an unknown argument by name.
        ...(required.length > 0 ? { required } : {}),
      },
      annotations: annotations(route.method),
    },
    toolset: entry.toolset,
    ...(entry.resultNote ? { resultNote: entry.resultNote } : {}),
    route,
    pathParams,
    queryKeys: new Set(Object.keys(query?.properties ?? {})),
    bodyFields,
  };
}

/**
 * When to use the tool and where the detail is. Scopes and the reads that need no token are
 * not repeated per tool: a model cannot change the token its client sends, a refusal names
 * the scope it lacks, and the server's instructions say which reads are open (mcp/server.ts).
 */
const describe = ({ use, docs }: ToolEntry): string => `${use} Docs: /docs/${docs}`;

/** A list argument's schema: an array of strings, as every tool takes a list (catalog.ts, `listArguments`). */
const listSchema = ({ description, maxItems }: ListArgument): JsonSchema => ({
  type: "array",
  items: { type: "string" },
  minItems: 1,
  maxItems,
  description,
});

function annotations(method: AnyRoute["method"]): Annotations {
  if (method === "get") return { readOnlyHint: true };
  if (method === "post") return { destructiveHint: false };
  if (method === "patch") return { destructiveHint: false, idempotentHint: true };
  return { idempotentHint: true };
}

/**
 * The JSON Schema of a zod object schema. Refinements (cross-field rules, id length) stay with
 * the REST validation, which every call goes through. `$schema` is left out: MCP clients
 * validate with their own draft.
 */
function objectSchema(schema: z.ZodType | undefined): ObjectSchema | null {
  if (!schema) return null;
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  if (json.type !== "object" || typeof json.properties !== "object") {
    throw new Error("an MCP tool needs object schemas for its path, query and body");
  }
  return json as ObjectSchema;
}
