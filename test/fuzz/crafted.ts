/**
 * Requests built by hand for two edges every route shares, sent to each one in turn rather than
 * drawn at random: JSON nested far deeper than any parser or validator recurses, and other
 * spellings of each route's path (case, trailing and doubled slashes).
 */
import { poolOf } from "./schema-values.js";
import type { Operation } from "./recipe.js";
import type { World } from "./world.js";

/** Levels of nesting: far past the call stack of anything that walks a value recursively. */
export const DEPTH = 10_000;

export interface DeepBody {
  label: string;
  text: string;
}

const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** Whole bodies nested DEPTH levels deep (all within the 64 KiB body limit), closed and not. */
export const DEEP_BODIES: DeepBody[] = [
  { label: `${DEPTH} [`, text: deepArrays(DEPTH) },
  { label: `${DEPTH} {"a":`, text: deepObjects(DEPTH) },
  { label: `${DEPTH} {"a":[ alternating`, text: '{"a":['.repeat(DEPTH / 2) + "]}".repeat(DEPTH / 2) },
  { label: `${DEPTH} [ unclosed`, text: "[".repeat(DEPTH) },
  { label: `${DEPTH} {"a": unclosed`, text: '{"a":'.repeat(DEPTH) },
];

/** Deep enough to pass the 64 KiB body limit by nesting alone. */
export const OVER_LIMIT_BODY: DeepBody = { label: "40000 [ (over 64 KiB)", text: deepArrays(40_000) };

/** A JSON object whose one field holds DEPTH levels of arrays. */
export const deepField = (field: string): DeepBody => ({
  label: `${DEPTH} [ in "${field}"`,
  text: `{${JSON.stringify(field)}:${deepArrays(DEPTH)}}`,
});

/** JSON-RPC messages with DEPTH levels where a message's own parts go: the id, the params, the tool's name, a batch. */
export function deepMcpMessages(): DeepBody[] {
  const deep = deepArrays(DEPTH);
  return [
    { label: `${DEPTH} [ as the id`, text: `{"jsonrpc":"2.0","id":${deep},"method":"tools/list"}` },
    {
      label: `${DEPTH} {"a": as params`,
      text: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deepObjects(DEPTH)}}`,
    },
    {
      label: `${DEPTH} [ as the tool's name`,
      text: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${deep},"arguments":{}}}`,
    },
    { label: `${DEPTH} [ in a batch`, text: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"},${deep}]` },
  ];
}

/** A call of one tool with DEPTH levels as its arguments, and in one argument. */
export function deepToolCalls(tool: string, argument: string): DeepBody[] {
  const call = (args: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool}","arguments":${args}}}`;
  return [
    { label: `${DEPTH} {"a": as ${tool}'s arguments`, text: call(deepObjects(DEPTH)) },
    { label: `${DEPTH} [ in ${tool}'s ${argument}`, text: call(`{"${argument}":${deepArrays(DEPTH)}}`) },
  ];
}

/** The path of a template with real ids of the world (the owner's first records) in it. */
export function concretePath(template: string, world: World): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pool = poolOf(name);
    if (pool) return world.pools[pool][0];
    if (name === "date") return "2026-11-24";
    return template.startsWith("/v/") ? world.pools.viewSlug[0] : world.pools.calendarSlug[0];
  });
}

const capitalized = (segment: string) => segment.charAt(0).toUpperCase() + segment.slice(1);

/** Each literal segment of a template through `change`; parameters stay as they are. */
const literalsOf = (template: string, change: (segment: string, index: number, last: number) => string) => {
  const segments = template.split("/");
  const lastLiteral = segments.findLastIndex((s) => s !== "" && !s.startsWith("{"));
  return segments.map((s, i) => (s === "" || s.startsWith("{") ? s : change(s, i, lastLiteral))).join("/");
};

/**
 * Other spellings of a route: `/V1/mint`, `/v1/Mint`, `/V1/CALENDARS/{id}/EVENTS`,
 * `/v1/calendars/{id}/Events`, a trailing `/` or `//`, a leading `//`, a `//` inside, and
 * `//v1/Mint/`. Whether one answers as the route or 404 is the router's choice; what they
 * answer must hold either way.
 */
export function spellings(template: string, world: World): string[] {
  const path = concretePath(template, world);
  const lastCapitalized = concretePath(
    literalsOf(template, (s, i, last) => (i === last ? capitalized(s) : s)),
    world,
  );
  const firstUpper = concretePath(
    literalsOf(template, (s, i) => (i === 1 ? s.toUpperCase() : s)),
    world,
  );
  const allUpper = concretePath(
    literalsOf(template, (s) => s.toUpperCase()),
    world,
  );
  const spelled = [
    firstUpper,
    lastCapitalized,
    allUpper,
    `${path}/`,
    `${path}//`,
    `/${path}`,
    path.replace(/\/([^/]*)$/, "//$1"),
    `/${lastCapitalized}/`,
  ];
  return [...new Set(spelled)].filter((p) => p !== path);
}

/** The pages' routes, spelled otherwise too (the pages answer HTML, not the envelope). */
export const PAGE_TEMPLATES = ["/c/{slug}", "/c/{slug}.ics", "/v/{slug}"];

/** Every operation's template and method, with /mcp and /mcp/public, which the document does not list. */
export const routesOf = (operations: Operation[]): Array<{ method: string; template: string; body: boolean }> => [
  ...operations.map((op) => ({ method: op.method, template: op.path, body: op.body !== undefined })),
  { method: "POST", template: "/mcp", body: true },
  { method: "POST", template: "/mcp/public", body: true },
];
