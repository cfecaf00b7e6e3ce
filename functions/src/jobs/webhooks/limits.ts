/**
 * What bounds one instance's deliveries (docs/decisions/webhooks.md): attempts at once in all,
 * attempts at once to one receiver (host and port), and deliveries a minute per agent. Counts
 * live in this instance's memory, as the request rate limits do.
 */
export interface DeliveryLimits {
  /** Streams delivering at once in this instance. */
  atOnce: number;
  /** Streams delivering at once to one receiver. */
  perReceiver: number;
  /** Deliveries (attempts) one agent's webhooks make a minute. */
  perAgentPerMinute: number;
}

export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { atOnce: 32, perReceiver: 2, perAgentPerMinute: 6_000 };

const MINUTE_MS = 60_000;

/** Each agent's attempts in the current minute; windows that ended are forgotten. */
export class AgentAllowance {
  private windowStart = 0;
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  private roll(): void {
    const now = this.now();
    if (now - this.windowStart >= MINUTE_MS) {
      this.windowStart = now;
      this.spent.clear();
    }
  }

  left(agentId: string): boolean {
    this.roll();
    return (this.spent.get(agentId) ?? 0) < this.perMinute;
  }

  take(agentId: string): boolean {
    if (!this.left(agentId)) return false;
    this.spent.set(agentId, (this.spent.get(agentId) ?? 0) + 1);
    return true;
  }

  /** When the spent agents may attempt again (epoch ms). */
  nextWindow(): number {
    return this.windowStart + MINUTE_MS;
  }
}
