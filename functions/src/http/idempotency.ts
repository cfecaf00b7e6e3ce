/**
 * Exactly-once POSTs (docs/api.md#idempotency, #exactly-once-and-retention). A request first
 * claims its key (one small transaction); then the command's writes and the stored answer
 * commit together in the write's one transaction (http/execute.ts), so an effect never lands
 * without its answer and an answer is never stored without its effect. A crash in between
 * leaves only the claim, and a retry runs the command for the first time.
 */
import { randomUUID } from "node:crypto";
import type { Deps } from "../domain/deps.js";
import { sha256 } from "../domain/ids.js";
import { paths } from "../domain/paths.js";
import type { IdempotencyRecord } from "../domain/records.js";
import type { DocRef, Store, Transaction } from "../storage/port.js";
import { errors } from "../domain/errors.js";
import { httpErrors } from "./errors.js";

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A pending claim older than this belongs to a request that died; a retry may take it over. */
const STALE_PENDING_MS = 60 * 1000;
const MAX_KEY_LENGTH = 200;
/** This process. On a store that one process owns, a claim of an earlier process is dead at once. */
const PROCESS_ID = randomUUID();

export type FreshClaim = { kind: "fresh"; path: DocRef<IdempotencyRecord>; claimId: string };
export type Claim = FreshClaim | { kind: "replay"; status: number; body: unknown };

/** Reads and checks the header; the key is scoped to the caller (the anonymous caller for mint). */
export function idempotencyPath(header: string | undefined, agentId: string | null): DocRef<IdempotencyRecord> {
  if (header === undefined) throw httpErrors.missingIdempotencyKey("absent");
  if (header.length === 0) throw httpErrors.missingIdempotencyKey("empty");
  if (header.length > MAX_KEY_LENGTH) {
    throw errors.invalid("invalid_request", "the Idempotency-Key header must be 1 to 200 characters", {
      field: "Idempotency-Key",
    });
  }
  return paths.idempotency(sha256(`${agentId ?? "anonymous"}\n${header}`));
}

/**
 * What "the same request" means to a key: the operation, its path parameters and the body's JSON
 * value (key order and spacing aside), however it was sent (REST or an MCP tool call).
 */
export function fingerprint(operation: string, params: Record<string, string>, body: unknown): string {
  return sha256(JSON.stringify([operation, canonical(params), canonical(body ?? null)]));
}

/** A JSON value with its object keys sorted at every depth. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** Claims the key for this request, or answers with the stored response, in one transaction. */
export async function claimKey(deps: Deps, path: DocRef<IdempotencyRecord>, print: string): Promise<Claim> {
  const now = deps.clock();
  return deps.store.runTransaction(async (tx) => {
    const existing = (await tx.get(path))?.data;
    if (existing && existing.expires_at > now.toISOString()) {
      if (existing.fingerprint !== print) throw httpErrors.idempotencyKeyReused();
      if (existing.state === "done") return { kind: "replay", status: existing.status!, body: existing.body };
      if (!claimIsDead(existing, deps.store, now)) throw httpErrors.idempotencyKeyInUse();
    }
    const claimId = randomUUID();
    const expires = new Date(now.getTime() + RETENTION_MS);
    const record: IdempotencyRecord = {
      fingerprint: print,
      state: "pending",
      claim_id: claimId,
      process_id: PROCESS_ID,
      started_at: now.toISOString(),
      expires_at: expires.toISOString(),
      purge_at: expires,
    };
    tx.set(path, record);
    return { kind: "fresh", path, claimId };
  });
}

function claimIsDead(claim: IdempotencyRecord, store: Store, now: Date): boolean {
  if (store.singleProcess && claim.process_id !== PROCESS_ID) return true;
  return now.getTime() - Date.parse(claim.started_at) >= STALE_PENDING_MS;
}

async function holdsClaim(tx: Transaction, claim: FreshClaim): Promise<boolean> {
  const current = await tx.get(claim.path);
  return current?.data.state === "pending" && current.data.claim_id === claim.claimId;
}

/** A request whose claim was taken over (it was presumed dead) must not commit: the other attempt owns the key. */
export async function requireClaim(tx: Transaction, claim: FreshClaim): Promise<void> {
  if (!(await holdsClaim(tx, claim))) throw httpErrors.idempotencyKeyInUse();
}

/** Stores the answer of a fresh claim with the command's writes, in its transaction; secrets left out. */
export function recordAnswer(tx: Transaction, claim: FreshClaim, body: object, secretFields: readonly string[]): void {
  tx.update(claim.path, { state: "done", status: 200, body: withoutSecrets(body, secretFields) });
}

/**
 * After a refusal: a 4xx is stored for the key (the command committed nothing), a 5xx frees
 * the key so that a retry runs again. Skipped when the claim was taken over meanwhile.
 */
export async function recordRefusal(store: Store, claim: FreshClaim, status: number, body: unknown): Promise<void> {
  await store.runTransaction(async (tx) => {
    if (!(await holdsClaim(tx, claim))) return;
    if (status >= 500) tx.delete(claim.path);
    else tx.update(claim.path, { state: "done", status, body });
  });
}

/** Secrets (a token, a claim link) are answered once and never stored, not even in a replay. */
function withoutSecrets(body: object, secretFields: readonly string[]): object {
  if (secretFields.length === 0) return body;
  return Object.fromEntries(Object.entries(body).filter(([field]) => !secretFields.includes(field)));
}
