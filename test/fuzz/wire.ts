/**
 * From a recipe to the bytes sent: record references resolved against the world, values
 * percent-encoded (lone surrogates as their WTF-8 bytes), headers kept within what Node's
 * HTTP parser accepts so that every answer comes from the app, not from Node.
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { Recipe } from "./recipe.js";
import { Lazy } from "./schema-values.js";
import type { RawRequest } from "./send.js";
import { HEAD_BUDGET } from "./values.js";
import type { World } from "./world.js";

const MAX_PATH = 12 * 1024;

/** What realising a recipe needs beyond the world: idempotency keys stay unique and reusable. */
export interface SendState {
  keyCounter: number;
  lastKey: string | null;
  run: string;
}

export function realize(recipe: Recipe, world: World, state: SendState): RawRequest {
  const resolve = (value: unknown): unknown => resolveLazy(value, world);
  let path = recipe.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const segment = recipe.segments[name];
    if (!segment) return name;
    const value = resolve(segment.value);
    return segment.raw
      ? String(value)
      : percentEncode(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
  });
  path += recipe.pathSuffix;
  if (recipe.query.length > 0) {
    const pairs = recipe.query.map(([key, value, mode]) => {
      const v = resolve(value);
      const text = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
      return `${percentEncode(key)}=${mode === "raw" ? text : percentEncode(text)}`;
    });
    path += `${path.includes("?") ? "&" : "?"}${pairs.join("&")}`;
  }
  path = wireSafePath(path).slice(0, MAX_PATH);

  const headers: Record<string, string> = {};
  const token = authorizationOf(recipe.caller, recipe.garbageAuth, world);
  if (token !== null) headers.Authorization = token;
  if (recipe.area === "api" && recipe.method === "POST") {
    const key = idempotencyKeyOf(recipe, state);
    if (key !== null) headers["Idempotency-Key"] = key;
  }
  for (const [name, value] of recipe.extraHeaders) headers[name] = value;

  let body: Buffer | undefined;
  if (recipe.body.kind !== "none") {
    const text =
      recipe.body.kind === "json" ? (JSON.stringify(resolve(recipe.body.value)) ?? "null") : recipe.body.bytes;
    body = Buffer.isBuffer(text) ? text : Buffer.from(text, "utf8");
    if (recipe.body.contentType !== "") headers["Content-Type"] = recipe.body.contentType;
    if (recipe.body.encoding !== null) {
      headers["Content-Encoding"] = recipe.body.encoding;
      if (recipe.body.compress) body = compress(recipe.body.encoding, body);
    }
  }
  // Padding up to what Node's 16 KiB head limit leaves: a huge header the server must accept.
  const used = path.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  const room = HEAD_BUDGET - used;
  if (recipe.hugeHeader > 0 && room > 100)
    headers["X-Fuzz-Padding"] = "p".repeat(Math.min(recipe.hugeHeader, room - 100));
  if (used > HEAD_BUDGET) {
    // Too long a head is Node's own 431, not the app's: trim the longest header instead.
    const longest = Object.keys(headers).sort((a, b) => headers[b].length - headers[a].length)[0];
    if (longest)
      headers[longest] = headers[longest].slice(0, Math.max(0, headers[longest].length - (used - HEAD_BUDGET)));
  }
  for (const name of Object.keys(headers)) headers[name] = wireSafeHeader(headers[name]);
  return { method: recipe.method, path, headers, body, chunked: recipe.chunked };
}

/** A value with every `Lazy` in it made from the world. */
export function resolveLazy(value: unknown, world: World): unknown {
  if (value instanceof Lazy) return value.make(world);
  if (Array.isArray(value))
    return value.some((v) => v instanceof Lazy || (typeof v === "object" && v !== null))
      ? value.map((v) => resolveLazy(v, world))
      : value;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, {
        value: resolveLazy(v, world),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    return out;
  }
  return value;
}

/** The Authorization header of a caller: none, a garbage one, or the world's token of that caller. */
export function authorizationOf(caller: Recipe["caller"], garbageAuth: string, world: World): string | null {
  switch (caller) {
    case "none":
      return null;
    case "garbage":
      return garbageAuth;
    default:
      return `Bearer ${world.tokens[caller]}`;
  }
}

function idempotencyKeyOf(recipe: Recipe, state: SendState): string | null {
  if (recipe.idempotencyKey === "none") return null;
  if (recipe.idempotencyKey === "reuse" && state.lastKey) return state.lastKey;
  if (typeof recipe.idempotencyKey === "object") return recipe.idempotencyKey.value;
  state.lastKey = `fuzz-${state.run}-${++state.keyCounter}`;
  return state.lastKey;
}

function compress(encoding: string, body: Buffer): Buffer {
  const first = encoding.split(",")[0].trim().toLowerCase();
  if (first === "gzip" || first === "x-gzip") return gzipSync(body);
  if (first === "deflate") return deflateSync(body);
  if (first === "br") return brotliCompressSync(body);
  return body;
}

/** encodeURIComponent, except that lone surrogates become their WTF-8 bytes instead of throwing. */
export function percentEncode(text: string): string {
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/**
 * A request line is ASCII: Node's parser refuses other bytes with a bare 400 before any app
 * runs (and its client refuses controls), so everything else is percent-encoded as UTF-8.
 */
const wireSafePath = (path: string): string => path.replace(/[^\u0021-\u007e]/gu, (ch) => percentEncode(ch));
/** Header values may hold tab, 0x20-0x7E and 0x80-0xFF. */
export const wireSafeHeader = (value: string): string => value.replace(/[^\t\u0020-\u007e\u0080-\u00ff]/g, "?");
