import { errors } from "./errors.js";
/** Parses input with a zod schema, or throws a 400 that names the offending field. */
export function parseInput(schema, input, code, where) {
    const result = schema.safeParse(input);
    if (result.success)
        return result.data;
    // An unknown field first: `title` sent for `name` explains the missing `name` too.
    const ordered = [...result.error.issues].sort((a, b) => Number(b.code === "unrecognized_keys") - Number(a.code === "unrecognized_keys"));
    const issues = ordered.map((issue) => {
        const base = issue.path.map(String).join(".");
        if (issue.code === "unrecognized_keys") {
            const keys = issue.keys;
            const field = keys.map((k) => (base ? `${base}.${k}` : k)).join(", ");
            const message = `unknown field${keys.length > 1 ? "s" : ""} ${keys.map((k) => `\`${k}\``).join(", ")}`;
            return { field, message, text: `${where === "body" ? "" : `${where}: `}${message}${base ? ` in \`${base}\`` : ""}` };
        }
        const field = base || where;
        const message = issue.code === "invalid_type" && issue.message.endsWith("received undefined") ? "is required" : issue.message;
        return { field, message, text: `${base ? `\`${base}\`` : where} ${message}` };
    });
    const first = issues[0];
    throw errors.invalid(code, first.text, {
        field: first.field,
        issues: issues.map(({ field, message }) => ({ field, message })),
    });
}
//# sourceMappingURL=validate.js.map