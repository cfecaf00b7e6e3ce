/**
 * Serialized responses (JSON and HTML) kept in process memory, keyed by everything they were
 * computed from: callers build keys from calendar revisions (domain/revision.ts), so a key
 * can never answer stale data; a write makes new keys and old entries age out. Least recently
 * used entries go first once the byte budget is spent.
 */
export class ResponseCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly maxChars = 16 * 1024 * 1024) {}

  async text(key: string, compute: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = await compute();
    this.store(key, value);
    return value;
  }

  /** A JSON body serialized once; route.ts sends it as it is. */
  async json(key: string, compute: () => Promise<object>): Promise<PreparedJson> {
    return new PreparedJson(await this.text(key, async () => JSON.stringify(await compute())));
  }

  private store(key: string, value: string): void {
    if (value.length > this.maxChars / 4) return;
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldKey, oldValue] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldKey);
      this.size -= oldValue.length;
    }
  }
}

/** A response body that is already JSON text. */
export class PreparedJson {
  constructor(readonly text: string) {}
}
