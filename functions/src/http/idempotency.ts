/**
 * Exactly-once POSTs (docs/api.md#idempotency, #exactly-once-and-retention). A request first claims its key (one small
 * transaction); then the command's writes and the stored response commit together in ONE
 * transaction, so an effect never lands without its response and a response is never stored
 * without its effect. A crash in between leaves only the claim, and a retry runs the command
 * for the first time.
 */
import { randomUUID } from "node:crypto";
import type { Deps } from "../domain/deps.js";
import { sha256 } from "../domain/ids.js";
import { paths } from "../domain/paths.js";
import type { IdempotencyRecord } from "../domain/records.js";
import type { DocRef, Store, Transaction } from "../storage/port.js";
import { toErrorResponse } from "./error-handler.js";
import { errors } from "../domain/errors.js";
import { httpErrors } from "./errors.js";

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A pending claim older than this belongs to a request that died; a retry may take it over. */
const STALE_PENDING_MS = 60 * 1000;
const MAX_KEY_LENGTH = 200;
/** This process. On a store that one process owns, a claim of an earlier process is dead at once. */
const PROCESS_ID = randomUUID();

export type Claim =
  | { kind: "fresh"; path: DocRef<IdempotencyRecord>; claimId: string }
  | { kind: "replay"; status: number; body: unknown };

export interface Outcome {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Reads and checks the header; the key is scoped to the caller (the anonymous caller for mint). */
export function idempotencyPath(header: string | undefined, agentId: string | null): DocRef<IdempotencyRecord> {
  if (header === undefined) throw httpErrors.missingIdempotencyKey();
  if (header.length === 0 || header.length > MAX_KEY_LENGTH) {
    throw errors.invalid("invalid_request", "the Idempotency-Key header must be 1 to 200 characters", {
      field: "Idempotency-Key",
    });
  }
  return paths.idempotency(sha256(`${agentId ?? "anonymous"}\n${header}`));
}

export function fingerprint(method: string, path: string, rawBody: string): string {
  return sha256(`${method} ${path}\n${rawBody}`);
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

/**
 * Runs the operation once for a fresh claim. Its command joins this transaction (see
 * `joinTransaction`), which also stores the response, with its secret fields left out.
 * An error answer (4xx) commits no effect and is stored in a second step; a 5xx is not
 * stored, so a retry runs again.
 */
export async function executeOnce<D extends Deps>(
  deps: D,
  claim: Extract<Claim, { kind: "fresh" }>,
  secretFields: readonly string[],
  operation: (deps: D) => Promise<object>,
  requestId?: string,
): Promise<Outcome> {
  try {
    return await deps.store.runTransaction(async (tx) => {
      await requireClaim(tx, claim);
      const body = await operation({ ...deps, store: joinTransaction(deps.store, tx) });
      tx.update(claim.path, { state: "done", status: 200, body: withoutSecrets(body, secretFields) });
      return { status: 200, body, headers: {} };
    });
  } catch (err) {
    const outcome = toErrorResponse(err, deps, requestId);
    await deps.store.runTransaction(async (tx) => {
      if (!(await holdsClaim(tx, claim))) return;
      if (outcome.status >= 500) tx.delete(claim.path);
      else tx.update(claim.path, { state: "done", status: outcome.status, body: outcome.body });
    });
    return outcome;
  }
}

async function holdsClaim(
  tx: Transaction,
  claim: { path: DocRef<IdempotencyRecord>; claimId: string },
): Promise<boolean> {
  const current = await tx.get(claim.path);
  return current?.data.state === "pending" && current.data.claim_id === claim.claimId;
}

/** A request whose claim was taken over (it was presumed dead) must not commit: the other attempt owns the key. */
async function requireClaim(
  tx: Transaction,
  claim: { path: DocRef<IdempotencyRecord>; claimId: string },
): Promise<void> {
  if (!(await holdsClaim(tx, claim))) throw httpErrors.idempotencyKeyInUse();
}

/** PATCH and DELETE: the policy's reads and the command's writes in one transaction, as for POST. */
export function inOneTransaction<D extends Deps, T>(deps: D, operation: (deps: D) => Promise<T>): Promise<T> {
  return deps.store.runTransaction((tx) => operation({ ...deps, store: joinTransaction(deps.store, tx) }));
}

/**
 * The store as the operation sees it: reads go through the transaction (so the policy is
 * judged on the state the write commits against) and a command's own `runTransaction` joins
 * it instead of opening a second one.
 */
export function joinTransaction(store: Store, tx: Transaction): Store {
  return {
    singleProcess: store.singleProcess,
    outside: store,
    get: (path) => tx.get(path),
    getAll: (paths) => tx.getAll(paths),
    query: (collection, spec) => tx.query(collection, spec),
    count: (collection, spec) => store.count(collection, spec),
    runTransaction: (fn) => fn(tx),
    close: () => store.close(),
  };
}

/** Secrets (a token, a claim link) are answered once and never stored, not even in a replay. */
function withoutSecrets(body: object, secretFields: readonly string[]): object {
  if (secretFields.length === 0) return body;
  return Object.fromEntries(Object.entries(body).filter(([field]) => !secretFields.includes(field)));
}
