import { ApiError, errors } from "../../http/errors.js";
import { newAgentToken, newClaimToken, newId, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import { SCOPES } from "../types.js";
import { createCalendarInTx } from "./create-calendar.js";
const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const ONBOARD_TTL_MS = 30 * 60 * 1000;
const LATER_SCOPES = ["agent:read", "calendar:read", "calendar:write"];
export async function mint(deps, input) {
    const now = deps.clock();
    const nowIso = now.toISOString();
    return deps.store.runTransaction(async (tx) => {
        const onboard = input.onboard_token ? await readOnboardToken(tx, input.onboard_token, now) : null;
        const agent = {
            id: newId("agt"),
            name: input.name,
            created_at: nowIso,
            owner_user_id: onboard?.data.user_id ?? null,
        };
        const { calendar } = await createCalendarInTx(tx, { agentId: agent.id, agentName: agent.name }, { name: input.calendar?.name ?? input.name, timezone: input.calendar?.timezone }, nowIso);
        tx.create(paths.agent(agent.id), { ...agent });
        const { token, credential } = issueCredential(tx, agent, [...SCOPES], null, nowIso);
        let claimToken = null;
        if (onboard) {
            tx.update(onboard.path, { used_at: nowIso });
        }
        else {
            claimToken = newClaimToken();
            const claim = {
                agent_id: agent.id,
                created_at: nowIso,
                expires_at: new Date(now.getTime() + CLAIM_TTL_MS).toISOString(),
                used_at: null,
            };
            tx.create(paths.claim(sha256(claimToken)), { ...claim });
        }
        return { token, agent, credential, calendar, claimToken };
    });
}
async function readOnboardToken(tx, token, now) {
    const doc = token.startsWith("svc_onboard_") ? await tx.get(paths.onboardToken(sha256(token))) : null;
    const fresh = doc && !doc.data.used_at && Date.parse(doc.data.created_at) + ONBOARD_TTL_MS > now.getTime();
    if (!doc || !fresh) {
        throw new ApiError("invalid_onboard_token", "the onboard_token is unknown, used or older than 30 minutes; ask your human for a new one, or mint without it");
    }
    return doc;
}
/** Writes a credential and its token lookup; the token itself is only returned, never stored. */
function issueCredential(tx, agent, scopes, label, nowIso) {
    const token = newAgentToken();
    const tokenHash = sha256(token);
    const credential = {
        id: newId("cred"),
        agent_id: agent.id,
        label,
        scopes,
        token_hash: tokenHash,
        created_at: nowIso,
        expires_at: null,
        revoked_at: null,
    };
    const lookup = {
        agent_id: agent.id,
        agent_name: agent.name,
        credential_id: credential.id,
        scopes,
        expires_at: null,
        revoked_at: null,
    };
    tx.create(paths.credential(agent.id, credential.id), { ...credential });
    tx.create(paths.token(tokenHash), { ...lookup });
    return { token, credential };
}
export async function createCredential(deps, actor, label) {
    const nowIso = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => issueCredential(tx, { id: actor.agentId, name: actor.agentName }, LATER_SCOPES, label, nowIso));
}
export async function revokeCredential(deps, actor, credentialId) {
    const nowIso = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const doc = await tx.get(paths.credential(actor.agentId, credentialId));
        if (!doc || doc.data.revoked_at)
            throw errors.notFound("credential");
        const active = await tx.query(paths.credentials(actor.agentId), { where: [["revoked_at", "==", null]], limit: 2 });
        if (active.length < 2) {
            throw new ApiError("last_credential", "this is the agent's only active credential; create another before revoking it");
        }
        tx.update(doc.path, { revoked_at: nowIso });
        tx.update(paths.token(doc.data.token_hash), { revoked_at: nowIso });
        return { ...doc.data, revoked_at: nowIso };
    });
}
//# sourceMappingURL=identity.js.map