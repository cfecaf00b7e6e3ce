/**
 * What the domain needs to reach a receiver, declared here and handed in by the entry layer
 * (the composition roots build it from outbound/), so the domain imports no network code.
 */
export interface SendOptions {
  /** The attempt's time limit: past it the request is abandoned and counts as failed. */
  timeoutMs: number;
  /** Aborts the attempt early (a pass's deadline); it then counts as failed, never delivered. */
  signal?: AbortSignal;
}

export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status, or null when none came (refused address, timeout, network). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

/** One POST of a JSON body to a receiver's URL, under the one address policy. */
export type Sender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
) => Promise<SendResult>;
