import type { z } from "zod";
import { errors, type InvalidCode } from "../domain/errors.js";
import { httpErrors } from "./errors.js";
import { knownFields, suggestionFor } from "./suggest.js";

/** Parses input with a zod schema, or throws a 400 that names the offending field. */
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
  const issues = ordered.map((issue) => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      const keys = (issue as { keys: string[] }).keys;
      const field = keys.map((k) => (base ? `${base}.${k}` : k)).join(", ");
      const known = knownFields(schema, issue.path);
      const hints = keys.map((k) => suggestionFor(k, known)).filter((hint) => hint !== null);
      const unknown = `unknown field${keys.length > 1 ? "s" : ""} ${keys.map((k) => `\`${k}\``).join(", ")}`;
      const hint = hints.length > 0 ? `; ${hints.join("; ")}` : "";
      return {
        field,
        message: `${unknown}${hint}`,
        text: `${where === "body" ? "" : `${where}: `}${unknown}${base ? ` in \`${base}\`` : ""}${hint}`,
      };
    }
    const field = base || where;
    const message =
      issue.code === "invalid_type" && issue.message.endsWith("received undefined") ? "is required" : issue.message;
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
