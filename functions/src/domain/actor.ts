import type { Scope } from "./types.js";

/** The authenticated caller of a request; null for anonymous requests. */
export interface Actor {
  agentId: string;
  agentName: string;
  credentialId: string;
  scopes: readonly Scope[];
  /**
   * The only calendars the credential reaches, or null for every calendar the agent can reach.
   * Any other calendar is, to this caller, one that does not exist (domain/policy.ts).
   */
  calendars: readonly string[] | null;
  /** When the credential stops working (ISO instant), or null; what it creates cannot outlive it. */
  expiresAt: string | null;
}

/** A caller whose credential names no calendars: the agent in full, or the service's own work. */
export const EVERY_CALENDAR: Pick<Actor, "calendars"> = { calendars: null };
