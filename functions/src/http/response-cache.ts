/**
 * Serialized responses (JSON and HTML) kept in process memory, keyed by everything they were
 * computed from: callers build keys from calendar revisions (domain/revision.ts), so a key
 * can never answer stale data; a write makes new keys and old entries age out. Least recently
 * used entries go first once the byte budget is spent. Bodies are kept encoded, ready to send.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Buffer>();
  private size = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  async body(key: string, compute: () => Promise<string>): Promise<Buffer> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = Buffer.from(await compute());
    this.store(key, value);
    return value;
  }

  /** A JSON body serialized once; route.ts sends it as it is. */
  async json(key: string, compute: () => Promise<object>): Promise<PreparedJson> {
    return new PreparedJson(await this.body(key, async () => JSON.stringify(await compute())));
  }

  private store(key: string, value: Buffer): void {
    if (value.length > this.maxBytes / 4) return;
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldKey, oldValue] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldKey);
      this.size -= oldValue.length;
    }
  }
}

/** A response body that is already JSON, encoded. */
export class PreparedJson {
  constructor(readonly body: Buffer) {}
}
