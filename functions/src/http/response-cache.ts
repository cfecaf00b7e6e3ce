/**
 * Serialized responses (JSON and HTML) kept in process memory, keyed by everything they were
 * computed from: callers build keys from calendar revisions (domain/revision.ts) and the
 * parsed, canonical query, never from raw input, so a key can never answer stale data; a
 * write makes new keys and old entries age out. Least recently used entries go first once the
 * byte budget is spent. Bodies are kept encoded, ready to send.
 *
 * The budget counts everything an entry holds: the key (an attacker sent 40,000 requests with unique
 * 14 KB query values grew a process from 113 MB to 815 MB while the values counted were tiny),
 * the value, and a fixed overhead per entry. Keys longer than MAX_KEY_LENGTH are answered but
 * not kept: only a long free-text filter makes one, and such a query is rarely asked twice.
 */
import { sha256 } from "../domain/ids.js";
import type { RenderedCache } from "./deps.js";

/**
 * The key of every kept answer: its kind, then everything it was computed from (revisions
 * from `revisionsKey`, the parsed query, the day), hashed, so that two kinds never share one.
 * Input longer than a kept key may be (only a long free-text filter makes it) stays in the
 * key as it is, so the answer is given but not kept: such a query is rarely asked twice, and
 * unique ones must not push the others out.
 */
export function answerKey(kind: string, ...computedFrom: unknown[]): string {
  const text = JSON.stringify(computedFrom);
  return text.length > MAX_KEY_LENGTH ? `${kind}|${text}` : `${kind}|${sha256(text)}`;
}

/** Map entry, key string header, Buffer object and its allocation, in bytes (measured order of magnitude). */
export const ENTRY_OVERHEAD_BYTES = 256;

/** Longer keys are not kept (the canonical keys of lists and pages stay well under it). */
export const MAX_KEY_LENGTH = 512;

const DEFAULT_BUDGET_BYTES = 32 * 1024 * 1024;

interface Entry {
  value: Buffer;
  cost: number;
}

/** What a key and its value cost: JS strings may take two bytes a character. */
const costOf = (key: string, value: Buffer): number => key.length * 2 + value.length + ENTRY_OVERHEAD_BYTES;

export class ResponseCache implements RenderedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly computing = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(private readonly maxBytes = DEFAULT_BUDGET_BYTES) {}

  async body(key: string, compute: () => Promise<string>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    if (key.length > MAX_KEY_LENGTH) return Buffer.from(await compute());
    // Requests that miss the same key at once wait for one computation (a feed polled by many
    // readers just after a write is rendered once, not once per reader).
    let pending = this.computing.get(key);
    if (pending === undefined) {
      pending = this.computeAndStore(key, compute).finally(() => this.computing.delete(key));
      this.computing.set(key, pending);
    }
    return pending;
  }

  private async computeAndStore(key: string, compute: () => Promise<string>): Promise<Buffer> {
    const text = await compute();
    // Its own allocation, not a slice of Node's shared 8 KB pool: a small kept value would pin a whole slab.
    const value = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    value.write(text);
    this.store(key, value);
    return value;
  }

  /** A JSON body serialized once; route.ts sends it as it is. */
  async json(key: string, compute: () => Promise<object>): Promise<PreparedJson> {
    return new PreparedJson(await this.body(key, async () => JSON.stringify(await compute())));
  }

  /** Entries kept and the bytes they are counted for. */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private store(key: string, value: Buffer): void {
    const cost = costOf(key, value);
    if (cost > this.maxBytes / 4) return;
    // Two requests may have computed the same key at once: count it once.
    const previous = this.entries.get(key);
    if (previous) this.bytes -= previous.cost;
    this.entries.set(key, { value, cost });
    this.bytes += cost;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.cost;
    }
  }
}

/** A response body that is already JSON, encoded. */
export class PreparedJson {
  constructor(readonly body: Buffer) {}
}
