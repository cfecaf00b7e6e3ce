/**
 * The deployment files that no emulator reads: firestore.indexes.json (TTL policies and index
 * exemptions, DECISIONS section 11), checked with firebase-tools' own validator.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const readJson = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

interface FieldOverride {
  collectionGroup: string;
  fieldPath: string;
  ttl?: boolean;
  indexes: unknown[];
}

describe("firestore.indexes.json", () => {
  const spec = readJson("firestore.indexes.json") as { indexes: unknown[]; fieldOverrides: FieldOverride[] };
  const override = (collection: string, field: string) =>
    spec.fieldOverrides.find((f) => f.collectionGroup === collection && f.fieldPath === field);

  it("passes the validator `firebase deploy --only firestore:indexes` runs", () => {
    const { FirestoreApi } = createRequire(import.meta.url)("firebase-tools/lib/firestore/api.js");
    expect(() => new FirestoreApi().validateSpec(spec)).not.toThrow();
  });

  it("purges idempotency records, claim links and onboard tokens on their `purge_at` Timestamp", () => {
    for (const collection of ["idempotency", "claims", "onboard_tokens"]) {
      // A TTL field is written with ever later instants and never queried: no index on it.
      expect(override(collection, "purge_at"), collection).toEqual({ collectionGroup: collection, fieldPath: "purge_at", ttl: true, indexes: [] });
    }
  });

  it("keeps the idempotency collection's ever-increasing timestamps and stored responses out of the indexes", () => {
    for (const field of ["started_at", "expires_at", "body"]) expect(override("idempotency", field)?.indexes, field).toEqual([]);
  });
});
