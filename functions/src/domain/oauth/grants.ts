/** The OAuth grants the account page shows for each agent (docs/api.md#humans-claims-and-accounts). */
import type { Store } from "../../storage/port.js";
import { paths } from "../paths.js";
import type { OAuthGrantRecord } from "./records.js";

/** At most this many apps are listed per agent (bounded work per page). */
export const GRANTS_SHOWN = 20;

/** An agent's live grants, newest first. */
export async function liveGrants(store: Pick<Store, "query">, agentId: string): Promise<OAuthGrantRecord[]> {
  const live = await store.query(paths.oauthGrants(agentId), {
    where: [["revoked_at", "==", null]],
    limit: GRANTS_SHOWN,
  });
  return live.map((doc) => doc.data).sort((a, b) => b.created_at.localeCompare(a.created_at));
}
