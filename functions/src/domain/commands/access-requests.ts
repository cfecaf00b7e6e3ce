import { errors } from "../errors.js";
import type { Transaction } from "../../storage/port.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { authorizeRole, roleAtLeast } from "../policy.js";
import { liveGrantInTx, roleInTx } from "../grants.js";
import type { AccessRequestRecord, PendingRequestRecord } from "../records.js";
import type { Role } from "../types.js";
import { putGrantInTx } from "./grants.js";

/**
 * POST access-requests: one pending request per agent and calendar. The pending marker is
 * read and created in the caller's transaction, so concurrent repeats all answer the original.
 */
export async function requestAccess(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  calendarId: string,
  input: { role: Role; message: string | null },
): Promise<AccessRequestRecord> {
  const now = deps.clock().toISOString();
  const pendingPath = paths.pendingRequest(calendarId, actor.agentId);
  const [pending, membership] = await Promise.all([
    tx.get(pendingPath),
    tx.get(paths.membership(actor.agentId, calendarId)),
  ]);
  if (roleAtLeast(membership?.data.role ?? null, input.role)) throw errors.alreadyGranted(membership!.data.role);
  const original = pending ? await tx.get(paths.accessRequest(calendarId, pending.data.request_id)) : null;
  if (original) return original.data;
  const request: AccessRequestRecord = {
    id: newId("areq"),
    calendar_id: calendarId,
    agent_id: actor.agentId,
    agent_name: actor.agentName,
    role: input.role,
    message: input.message,
    status: "pending",
    created_at: now,
    resolved_at: null,
    resolved_by: null,
  };
  tx.create(paths.accessRequest(calendarId, request.id), request);
  const marker: PendingRequestRecord = { request_id: request.id };
  if (pending) tx.set(pendingPath, marker);
  else tx.create(pendingPath, marker);
  return request;
}

/** Approve (create the grant or raise a lower role, never lower one) or deny a pending request. */
export async function resolveAccessRequest(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  calendarId: string,
  requestId: string,
  resolution: "approve" | "deny",
): Promise<AccessRequestRecord> {
  const now = deps.clock().toISOString();
  const [request, callerRole] = await Promise.all([
    tx.get(paths.accessRequest(calendarId, requestId)),
    roleInTx(tx, calendarId, actor.agentId),
  ]);
  // The route's policy checks this too; judged here as well, on what this transaction reads,
  // so that the command holds whoever calls it.
  authorizeRole(callerRole, "grants.manage");
  if (!request) throw errors.notFound("access request");
  if (request.data.status !== "pending") throw errors.alreadyResolved(request.data.status);
  const { agent_id: agentId, agent_name: agentName, role } = request.data;
  const existing = resolution === "approve" ? await liveGrantInTx(tx, calendarId, agentId) : null;
  if (resolution === "approve" && !roleAtLeast(existing?.data.role ?? null, role)) {
    putGrantInTx(tx, { calendarId, agentId, agentName, role, existing: existing?.data ?? null, now });
  }
  const resolved: AccessRequestRecord = {
    ...request.data,
    status: resolution === "approve" ? "approved" : "denied",
    resolved_at: now,
    resolved_by: actor.agentId,
  };
  tx.update(request.path, { status: resolved.status, resolved_at: now, resolved_by: actor.agentId });
  tx.delete(paths.pendingRequest(calendarId, agentId));
  return resolved;
}
