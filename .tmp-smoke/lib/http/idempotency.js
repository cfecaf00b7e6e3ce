import { sha256 } from "../domain/ids.js";
import { errors } from "./errors.js";
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A pending record older than this belongs to a request that died; a retry may take it over. */
const STALE_PENDING_MS = 60 * 1000;
const MAX_KEY_LENGTH = 200;
/** Reads and checks the header; the key is scoped to the caller (the anonymous caller for mint). */
export function idempotencyPath(header, agentId) {
    if (header === undefined)
        throw errors.missingIdempotencyKey();
    if (header.length === 0 || header.length > MAX_KEY_LENGTH) {
        throw errors.invalid("invalid_request", "the Idempotency-Key header must be 1 to 200 characters", {
            field: "Idempotency-Key",
        });
    }
    return `idempotency/${sha256(`${agentId ?? "anonymous"}\n${header}`)}`;
}
export function fingerprint(method, path, rawBody) {
    return sha256(`${method} ${path}\n${rawBody}`);
}
/** Claims the key for this request, or answers with the stored response, in one transaction. */
export async function claimKey(deps, path, print) {
    const now = deps.clock();
    return deps.store.runTransaction(async (tx) => {
        const existing = (await tx.get(path))?.data;
        if (existing && existing.expires_at > now.toISOString()) {
            if (existing.fingerprint !== print)
                throw errors.idempotencyKeyReused();
            if (existing.state === "done")
                return { kind: "replay", status: existing.status, body: existing.body };
            const age = now.getTime() - Date.parse(existing.started_at);
            if (age < STALE_PENDING_MS)
                throw errors.idempotencyKeyInUse();
        }
        const record = {
            fingerprint: print,
            state: "pending",
            started_at: now.toISOString(),
            expires_at: new Date(now.getTime() + RETENTION_MS).toISOString(),
        };
        tx.set(path, record);
        return { kind: "fresh", path };
    });
}
/**
 * Stores the response for replays. Server errors are not stored, so a retry runs again.
 * A top-level `token` is a secret that is returned once and never stored.
 */
export async function settleKey(deps, path, status, body) {
    await deps.store.runTransaction(async (tx) => {
        if (status >= 500) {
            tx.delete(path);
            return;
        }
        const stored = stripSecret(body);
        tx.update(path, { state: "done", status, body: stored });
    });
}
function stripSecret(body) {
    if (!body || typeof body !== "object" || !("token" in body))
        return body;
    const { token: _secret, ...rest } = body;
    return rest;
}
//# sourceMappingURL=idempotency.js.map