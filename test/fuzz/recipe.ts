/**
 * Requests from the OpenAPI document. For every operation the fuzzer draws a recipe: values
 * for each path parameter, query parameter and body field, a caller, headers and a body
 * encoding. Three kinds, so that requests both reach the commands and attack every edge:
 * clean ones (plausible values, real ids, the owner's token), clean ones with exactly one
 * thing made hostile, and chaos where every part is drawn independently.
 */
import fc from "fast-check";
import {
  applyMutation,
  cleanBodyArb,
  dateRange,
  fieldMutationArb,
  hostileValue,
  type JsonSchema,
  Lazy,
  nastyIdValue,
  objectOf,
  pick,
  poolOf,
  realId,
  validValue,
  type FieldMutation,
} from "./schema-values.js";
import {
  CONTENT_ENCODINGS,
  CONTENT_TYPES,
  GARBAGE_AUTH,
  NASTY_BODIES,
  NASTY_DATES,
  NASTY_SEGMENTS,
  nastyString,
  plausibleDate,
  wrongType,
} from "./values.js";
import type { Pools } from "./world.js";

export interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
}

/** Every operation of the document, with its parameters and body schema. */
export function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const body = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content?.[
        "application/json"
      ]?.schema;
      return { method: method.toUpperCase(), path, params: (op.parameters as Operation["params"]) ?? [], body };
    }),
  );
}

export type Caller = "owner" | "ownerNoGrantsScope" | "reader" | "stranger" | "revoked" | "none" | "garbage";

export type Segment = { raw: true; value: string | Lazy } | { raw: false; value: unknown };

export interface Recipe {
  area: "api" | "pages";
  /**
   * clean: every value plausible; one hostile: a clean recipe with one thing changed; chaos:
   * anything anywhere; crafted: a request built by hand (crafted.ts, mcp-messages.ts), which
   * the recipe only names for the findings.
   */
  mode: "clean" | "one hostile" | "chaos" | "crafted";
  /** `GET /v1/calendars/{calendarId}` — the operation (or page) the recipe was drawn for. */
  operation: string;
  method: string;
  template: string;
  segments: Record<string, Segment>;
  query: Array<[string, unknown, "encoded" | "raw"]>;
  pathSuffix: string;
  caller: Caller;
  garbageAuth: string;
  idempotencyKey: "fresh" | "none" | "reuse" | { value: string };
  body: BodyRecipe;
  extraHeaders: Array<[string, string]>;
  hugeHeader: number;
  /** Send the body with `Transfer-Encoding: chunked` instead of a Content-Length. */
  chunked: boolean;
}

export type BodyRecipe =
  | { kind: "none" }
  | { kind: "json"; value: unknown; contentType: string; encoding: string | null; compress: boolean }
  | { kind: "raw"; bytes: string | Buffer; contentType: string; encoding: string | null; compress: boolean };

const CALLER = fc.constantFrom<Caller>(
  ...([
    "owner",
    "owner",
    "owner",
    "owner",
    "owner",
    "owner",
    "ownerNoGrantsScope",
    "reader",
    "reader",
    "stranger",
    "stranger",
    "none",
    "none",
    "revoked",
    "garbage",
    "garbage",
  ] as Caller[]),
);
const METHOD_SWAP = fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS", "PROPFIND", "TRACE");
const PATH_SUFFIXES = [
  "/",
  "//",
  "/..",
  "/.",
  "%2F",
  "/%2E%2E",
  "?",
  "?&&=&",
  ".json",
  ";x=1",
  "/x",
  "/%ZZ",
  "%00",
  "#frag",
];

function contentTypeArb() {
  return fc.oneof(
    { weight: 7, arbitrary: fc.constant("application/json") },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  );
}
function encodingArb() {
  return fc.oneof(
    { weight: 9, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...CONTENT_ENCODINGS) },
  );
}

function bodyArb(op: Operation): fc.Arbitrary<BodyRecipe> {
  const json = (value: fc.Arbitrary<unknown>) =>
    fc.record({
      kind: fc.constant("json" as const),
      value,
      contentType: contentTypeArb(),
      encoding: encodingArb(),
      compress: fc.boolean(),
    });
  const raw = fc.record({
    kind: fc.constant("raw" as const),
    bytes: fc.constantFrom(...NASTY_BODIES),
    contentType: contentTypeArb(),
    encoding: encodingArb(),
    compress: fc.boolean(),
  });
  const none = fc.constant({ kind: "none" as const });
  if (!op.body) {
    // Reads and deletes carry no body; sometimes one is sent anyway.
    return fc.oneof(
      { weight: 12, arbitrary: none },
      { weight: 1, arbitrary: json(fc.jsonValue({ maxDepth: 2 })) },
      { weight: 1, arbitrary: raw },
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: json(objectOf(op.body, false)) },
    { weight: 6, arbitrary: json(objectOf(op.body, true)) },
    { weight: 1, arbitrary: json(wrongType) },
    { weight: 2, arbitrary: raw },
    { weight: 1, arbitrary: none },
  );
}

function segmentArb(param: Operation["params"][number]): fc.Arbitrary<Segment> {
  const pool = poolOf(param.name);
  const real = pool ? realId(pool) : validValue(param.schema, param.name);
  return fc.oneof(
    { weight: 5, arbitrary: real.map((value): Segment => ({ raw: false, value })) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_SEGMENTS).map((value): Segment => ({ raw: true, value })) },
    { weight: 2, arbitrary: nastyIdValue(pool).map((value): Segment => ({ raw: false, value })) },
    // Another record's path with its slashes raw: `{calendarId}/events/{eventId}`.
    {
      weight: 1,
      arbitrary: fc.nat().map((i): Segment => ({
        raw: true,
        value: new Lazy((w) => w.pools.recordPath[i % w.pools.recordPath.length], "<record path>"),
      })),
    },
  );
}

function queryArb(op: Operation): fc.Arbitrary<Recipe["query"]> {
  const params = op.params.filter((p) => p.in === "query");
  const entries = params.map((p) =>
    fc.oneof(
      // Optional parameters are often left out.
      { weight: p.required ? 1 : 4, arbitrary: fc.constant([] as Recipe["query"]) },
      { weight: 4, arbitrary: validValue(p.schema, p.name).map((v): Recipe["query"] => [[p.name, v, "encoded"]]) },
      { weight: 2, arbitrary: hostileValue(p.schema, p.name).map((v): Recipe["query"] => [[p.name, v, "encoded"]]) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("%ZZ", "%", "a&b=c", "x".repeat(1001), "x".repeat(12_000), "%00", "%C0%AF")
          .map((v): Recipe["query"] => [[p.name, v, "raw"]]),
      },
      // Repeated, bracketed: the "simple" parser turns repeats into arrays.
      {
        weight: 1,
        arbitrary: fc
          .tuple(validValue(p.schema, p.name), validValue(p.schema, p.name))
          .map(([a, b]): Recipe["query"] => [
            [p.name, a, "encoded"],
            [p.name, b, "encoded"],
          ]),
      },
      {
        weight: 1,
        arbitrary: validValue(p.schema, p.name).map((v): Recipe["query"] => [
          [`${p.name}[]`, v, "encoded"],
          [`${p.name}[a][b]`, v, "encoded"],
        ]),
      },
    ),
  );
  const unknown = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as Recipe["query"]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("foo", "__proto__", "constructor", "limit", "cursor", "from", "layers", ""), nastyString)
        .map(([k, v]): Recipe["query"] => [[k, v, "encoded"]]),
    },
  );
  return fc.tuple(...entries, unknown).map((parts) => parts.flat());
}

export function apiRecipeArb(op: Operation): fc.Arbitrary<Recipe> {
  const clean = cleanRecipeArb(op);
  const chaos = chaosRecipeArb(op);
  const mutation = op.body ? fieldMutationArb(op.body) : fc.constant(null);
  const oneHostile = fc.tuple(clean, chaos, mutation, fc.nat()).map(([c, x, m, n]) => withOneHostile(op, c, x, m, n));
  return fc.oneof(
    { weight: 3, arbitrary: clean },
    { weight: 5, arbitrary: oneHostile },
    { weight: 2, arbitrary: chaos },
  );
}

const CLEAN_CALLER = fc.constantFrom<Caller>(
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "owner",
  "reader",
  "stranger",
  "ownerNoGrantsScope",
);

function cleanRecipeArb(op: Operation): fc.Arbitrary<Recipe> {
  const segments = Object.fromEntries(
    op.params
      .filter((p) => p.in === "path")
      .map((p) => [
        p.name,
        (poolOf(p.name) ? realId(poolOf(p.name)!) : validValue(p.schema, p.name)).map((value): Segment => ({
          raw: false,
          value,
        })),
      ]),
  );
  return fc.record({
    area: fc.constant("api" as const),
    mode: fc.constant("clean" as const),
    operation: fc.constant(`${op.method} ${op.path}`),
    method: fc.constant(op.method),
    template: fc.constant(op.path),
    segments: fc.record(segments),
    query: cleanQueryArb(op),
    pathSuffix: fc.constant(""),
    caller: CLEAN_CALLER,
    garbageAuth: fc.constant(""),
    idempotencyKey: fc.constant("fresh" as const),
    body: op.body
      ? cleanBodyArb(op.body).map((value): BodyRecipe => ({
          kind: "json",
          value,
          contentType: "application/json",
          encoding: null,
          compress: false,
        }))
      : fc.constant<BodyRecipe>({ kind: "none" }),
    extraHeaders: fc.constant([] as Array<[string, string]>),
    hugeHeader: fc.constant(0),
    chunked: fc.constant(false),
  });
}

/** Plausible query values; `from` and `to` together are a range of sensible length. */
function cleanQueryArb(op: Operation): fc.Arbitrary<Recipe["query"]> {
  const params = op.params.filter((p) => p.in === "query");
  const ranged = params.some((p) => p.name === "from") && params.some((p) => p.name === "to");
  const singles = params
    .filter((p) => !(ranged && (p.name === "from" || p.name === "to")))
    .map((p) =>
      fc.oneof(
        { weight: p.required ? 0 : 2, arbitrary: fc.constant([] as Recipe["query"]) },
        { weight: 1, arbitrary: validValue(p.schema, p.name).map((v): Recipe["query"] => [[p.name, v, "encoded"]]) },
      ),
    );
  const required = params.some((p) => p.required && (p.name === "from" || p.name === "to"));
  const range = ranged
    ? fc.oneof(
        { weight: required ? 0 : 1, arbitrary: fc.constant([] as Recipe["query"]) },
        {
          weight: 3,
          arbitrary: dateRange.map(([from, to]): Recipe["query"] => [
            ["from", from, "encoded"],
            ["to", to, "encoded"],
          ]),
        },
      )
    : fc.constant([] as Recipe["query"]);
  return fc.tuple(range, ...singles).map((parts) => parts.flat());
}

/** A clean recipe with one part taken from a chaotic one, or one body field made hostile. */
function withOneHostile(
  op: Operation,
  clean: Recipe,
  chaos: Recipe,
  mutation: FieldMutation | null,
  n: number,
): Recipe {
  const swaps: Array<() => Partial<Recipe>> = [
    () => ({ caller: chaos.caller, garbageAuth: chaos.garbageAuth }),
    () => ({ query: chaos.query }),
    () => ({ method: chaos.method }),
    () => ({ pathSuffix: chaos.pathSuffix || "/" }),
    () => ({ extraHeaders: chaos.extraHeaders, hugeHeader: chaos.hugeHeader || 12_000 }),
    () => ({ chunked: true }),
  ];
  for (const name of Object.keys(clean.segments))
    swaps.push(() => ({ segments: { ...clean.segments, [name]: chaos.segments[name] } }));
  if (op.method === "POST")
    swaps.push(() => ({ idempotencyKey: chaos.idempotencyKey === "fresh" ? "reuse" : chaos.idempotencyKey }));
  if (clean.body.kind === "json" && mutation) {
    const body = clean.body;
    const mutated = () => ({ body: { ...body, value: applyMutation(body.value, mutation) } });
    // Body fields are where most input goes: three chances in the draw.
    swaps.push(mutated, mutated, mutated);
    swaps.push(() => ({ body: chaos.body.kind === "none" ? { kind: "none" as const } : { ...chaos.body } }));
    swaps.push(() => ({
      body:
        chaos.body.kind === "none"
          ? body
          : {
              ...body,
              contentType: chaos.body.contentType,
              encoding: chaos.body.encoding ?? "gzip",
              compress: chaos.body.compress,
            },
    }));
  } else {
    swaps.push(() => ({ body: chaos.body }));
  }
  return { ...clean, ...swaps[n % swaps.length](), mode: "one hostile" };
}

function chaosRecipeArb(op: Operation): fc.Arbitrary<Recipe> {
  const segments = Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, segmentArb(p)]));
  return fc.record({
    area: fc.constant("api" as const),
    mode: fc.constant("chaos" as const),
    operation: fc.constant(`${op.method} ${op.path}`),
    method: fc.oneof({ weight: 15, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: METHOD_SWAP }),
    template: fc.constant(op.path),
    segments: fc.record(segments),
    query: queryArb(op),
    pathSuffix: fc.oneof(
      { weight: 19, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.constantFrom(...PATH_SUFFIXES) },
    ),
    caller: CALLER,
    garbageAuth: fc.constantFrom(...GARBAGE_AUTH),
    idempotencyKey: fc.oneof(
      { weight: 14, arbitrary: fc.constant("fresh" as const) },
      { weight: 1, arbitrary: fc.constant("none" as const) },
      { weight: 1, arbitrary: fc.constant("reuse" as const) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("", " ", "x".repeat(200), "x".repeat(201), "k".repeat(8000), "é", "../x")
          .map((value) => ({ value })),
      },
    ),
    body: bodyArb(op),
    extraHeaders: extraHeadersArb,
    hugeHeader: fc.oneof(
      { weight: 19, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.constantFrom(4000, 9000, 12_000) },
    ),
    chunked: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });
}

const extraHeadersArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant([] as Array<[string, string]>) },
  {
    weight: 1,
    arbitrary: fc.subarray([
      ["Accept", "text/html"],
      ["Accept", "application/xml;q=1, */*;q=0"],
      ["Accept-Encoding", "gzip, br"],
      ["Accept-Charset", "utf-16"],
      ["If-None-Match", "*"],
      ["If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"],
      ["Origin", "https://evil.example"],
      ["X-Forwarded-For", "1.2.3.4, ::1, not-an-ip"],
      ["X-HTTP-Method-Override", "DELETE"],
      ["Range", "bytes=0-10"],
      ["Cookie", "session=x"],
    ] as Array<[string, string]>),
  },
);

// ---- Pages and feeds -------------------------------------------------------------------

const PAGE_TEMPLATES = [
  "/c/{slug}",
  "/c/{slug}",
  "/c/{slug}.ics",
  "/c/{slug}/purpose.md",
  "/c/{slug}/x/y",
  "/c/{slug}/",
  "/v/{slug}",
  "/v/{slug}",
  "/v/{slug}.ics",
  "/v/{slug}/",
  "/c/_assets/{slug}",
  "/v/_assets/{slug}",
  "/c/",
  "/v/",
];

export const pageRecipeArb: fc.Arbitrary<Recipe> = fc
  .tuple(fc.constantFrom(...PAGE_TEMPLATES), fc.nat(), fc.nat(9))
  .chain(([template, i, dice]) => {
    const slugPool: keyof Pools = template.startsWith("/v/") === dice < 8 ? "viewSlug" : "calendarSlug";
    const slug: fc.Arbitrary<Segment> = fc.oneof(
      { weight: 5, arbitrary: fc.constant<Segment>({ raw: false, value: pick(slugPool, i) }) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_SEGMENTS).map((value): Segment => ({ raw: true, value })) },
      { weight: 1, arbitrary: nastyString.map((value): Segment => ({ raw: false, value })) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("%ZZ", "%ZZ.ics", "a.ics.ics", ".ics", "style.css", "..%2F..%2Fetc%2Fpasswd")
          .map((value): Segment => ({ raw: true, value })),
      },
    );
    const query = fc
      .tuple(
        fc.oneof(
          fc.constant([] as Recipe["query"]),
          fc
            .constantFrom("month", "week", "schedule", "timeline", "MONTH", "", "x".repeat(2000))
            .map((v): Recipe["query"] => [["view", v, "encoded"]]),
        ),
        fc.oneof(
          fc.constant([] as Recipe["query"]),
          fc
            .oneof(plausibleDate, fc.constantFrom(...NASTY_DATES, "2026-11", "2026-W48", "2026", "-1"))
            .map((v): Recipe["query"] => [["date", v, "encoded"]]),
        ),
        fc.oneof(
          { weight: 5, arbitrary: fc.constant([] as Recipe["query"]) },
          {
            weight: 1,
            arbitrary: fc.constantFrom<Recipe["query"]>(
              [["date", "%ZZ", "raw"]],
              [
                ["view", "a", "encoded"],
                ["view", "b", "encoded"],
              ],
              [["date[]", "2026-11-22", "encoded"]],
              [["token", "x", "encoded"]],
            ),
          },
        ),
      )
      .map((parts) => parts.flat());
    return fc.record({
      area: fc.constant("pages" as const),
      mode: fc.constant("chaos" as const),
      operation: fc.constant(`GET ${template}`),
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant("GET") },
        { weight: 2, arbitrary: fc.constant("HEAD") },
        { weight: 1, arbitrary: METHOD_SWAP },
      ),
      template: fc.constant(template),
      segments: fc.record({ slug }),
      query,
      pathSuffix: fc.oneof(
        { weight: 19, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: fc.constantFrom(...PATH_SUFFIXES) },
      ),
      caller: fc.constantFrom<Caller>("none", "none", "owner", "garbage"),
      garbageAuth: fc.constantFrom(...GARBAGE_AUTH),
      idempotencyKey: fc.constant("none" as const),
      body: fc.oneof(
        { weight: 15, arbitrary: fc.constant<BodyRecipe>({ kind: "none" }) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(...NASTY_BODIES).map((bytes): BodyRecipe => ({
            kind: "raw",
            bytes,
            contentType: "application/json",
            encoding: null,
            compress: false,
          })),
        },
      ),
      extraHeaders: extraHeadersArb,
      hugeHeader: fc.oneof(
        { weight: 19, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.constantFrom(4000, 12_000) },
      ),
      chunked: fc.constant(false),
    });
  });

/** The recipe a request built by hand stands for in the findings: its operation and caller. */
export const craftedRecipe = (operation: string, method: string, caller: Caller): Recipe => ({
  area: "api",
  mode: "crafted",
  operation,
  method,
  template: operation.slice(operation.indexOf(" ") + 1),
  segments: {},
  query: [],
  pathSuffix: "",
  caller,
  garbageAuth: "",
  idempotencyKey: "none",
  body: { kind: "none" },
  extraHeaders: [],
  hugeHeader: 0,
  chunked: false,
});
