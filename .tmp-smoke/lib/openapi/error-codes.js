import { z } from "zod";
import { ERROR_STATUS } from "../http/errors.js";
/** The error envelope of every failure, with `code` narrowed to the given codes. */
export const errorEnvelope = (codes) => z.strictObject({
    error: z.strictObject({
        code: z.enum(codes),
        message: z.string().min(1),
        details: z.record(z.string(), z.unknown()).optional(),
    }),
});
/**
 * Which error codes an operation can answer: the ones its definition declares, plus the ones
 * the HTTP layer adds to every route of its kind (body parsing, authentication, idempotency,
 * crashes). Both the OpenAPI document and the response check of the test suite use this list.
 */
export function documentedErrors(route) {
    const codes = new Set(route.errors);
    codes.add("method_not_allowed");
    codes.add("internal");
    codes.add("unavailable");
    if (route.params || route.query)
        codes.add("invalid_request");
    if (route.method === "post" || route.method === "patch") {
        for (const code of ["invalid_json", "payload_too_large", "unsupported_media_type"])
            codes.add(code);
    }
    if (route.body)
        codes.add(route.invalidCode ?? "invalid_request");
    // A token that is sent must be valid, even where none is required.
    if (route.auth !== "none")
        codes.add("unauthorized");
    if (route.scope)
        codes.add("insufficient_scope");
    if (route.method === "post") {
        for (const code of ["missing_idempotency_key", "invalid_request", "idempotency_key_in_use", "idempotency_key_reused"]) {
            codes.add(code);
        }
    }
    return [...codes].sort(byStatusThenName);
}
/** Codes a request can meet before it reaches any operation (unknown path, unreadable body). */
export const UNROUTED_ERRORS = [
    "invalid_json",
    "not_found",
    "method_not_allowed",
    "payload_too_large",
    "unsupported_media_type",
    "internal",
];
/** Groups codes by their HTTP status, in ascending order. */
export function byStatus(codes) {
    const grouped = new Map();
    for (const code of [...codes].sort(byStatusThenName)) {
        const status = ERROR_STATUS[code];
        grouped.set(status, [...(grouped.get(status) ?? []), code]);
    }
    return grouped;
}
function byStatusThenName(a, b) {
    return ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b);
}
//# sourceMappingURL=error-codes.js.map