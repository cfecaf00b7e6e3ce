import type { z } from "zod";
import { errors, MAX_QUOTED, quote, type InvalidCode } from "../domain/errors.js";
import { httpErrors } from "./errors.js";
import { knownFields, suggestionFor } from "./suggest.js";

/** Unknown fields named in a refusal; the rest are counted ("and 190 more"). */
const MAX_NAMED_KEYS = 5;
/** Problems listed in `details.issues`; the first is the message. */
const MAX_ISSUES = 10;
/** A schema's own message is ours, but a custom one may carry a value: bounded too. */
const MAX_ISSUE_MESSAGE = 300;

/**
 * Parses input with a zod schema, or throws a 400 that names the offending field. What the
 * client sent is quoted through `quote` (at most MAX_QUOTED characters each), so the refusal
 * of a 60,000-character field name is as short as any other.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code: InvalidCode,
  where: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  // An unknown field first: `title` sent for `name` explains the missing `name` too.
  const ordered = [...result.error.issues].sort(
    (a, b) => Number(b.code === "unrecognized_keys") - Number(a.code === "unrecognized_keys"),
  );
  const issues = ordered.slice(0, MAX_ISSUES).map((issue) => {
    // A path may hold the client's own keys (a record's): each part is quoted short, and the whole.
    const base = quote(issue.path.map((part) => quote(String(part))).join("."), 2 * MAX_QUOTED);
    if (issue.code === "unrecognized_keys") {
      const keys = (issue as { keys: string[] }).keys;
      const named = keys.slice(0, MAX_NAMED_KEYS).map((k) => quote(k));
      const more = keys.length > named.length ? ` and ${keys.length - named.length} more` : "";
      const field = named.map((k) => (base ? `${base}.${k}` : k)).join(", ") + more;
      const known = knownFields(schema, issue.path);
      const hints = keys
        .slice(0, MAX_NAMED_KEYS)
        .map((k) => (k.length > MAX_QUOTED ? null : suggestionFor(k, known)))
        .filter((hint) => hint !== null);
      const unknown = `unknown field${keys.length > 1 ? "s" : ""} ${named.map((k) => `\`${k}\``).join(", ")}${more}`;
      const hint = hints.length > 0 ? `; ${hints.join("; ")}` : "";
      return {
        field,
        message: `${unknown}${hint}`,
        text: `${where === "body" ? "" : `${where}: `}${unknown}${base ? ` in \`${base}\`` : ""}${hint}`,
      };
    }
    const field = base || where;
    const message = quote(
      issue.code === "invalid_type" && issue.message.endsWith("received undefined") ? "is required" : issue.message,
      MAX_ISSUE_MESSAGE,
    );
    return { field, message, text: `${base ? `\`${base}\`` : where} ${message}` };
  });
  const first = issues[0];
  throw errors.invalid(code, first.text, {
    field: first.field,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}

/**
 * Parses the path parameters: a malformed id names nothing that could exist, so it is 404
 * not_found like an unknown one (docs/api.md#ids-and-text), and the value is not echoed.
 */
export function parsePathParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.map(String).join(".") || "path";
  throw httpErrors.notAnId(field);
}

/** Whether the value holds arrays or objects more than `limit` deep; iterative, so any depth is safe to ask. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Deeper than any operation's body goes: refused before the body is hashed for its Idempotency-Key. */
export const MAX_BODY_NESTING = 32;

export function requireBoundedNesting(body: unknown, code: InvalidCode): void {
  if (nestsDeeperThan(body, MAX_BODY_NESTING)) {
    throw errors.invalid(
      code,
      `the body nests deeper than ${MAX_BODY_NESTING} levels; no field of this operation does`,
    );
  }
}
