import type { Scope } from "./types.js";

/** The authenticated caller of a request; null for anonymous requests. */
export interface Actor {
  agentId: string;
  agentName: string;
  credentialId: string;
  scopes: readonly Scope[];
}
