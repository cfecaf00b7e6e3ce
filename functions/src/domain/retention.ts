/**
 * Records that expire (DECISIONS section 11): idempotency records after 24 hours, claim links
 * after 7 days, onboard tokens after 30 minutes. Each carries `purge_at` (a Date), the instant
 * after which nothing reads it any more. On Firestore a TTL policy on that field deletes them
 * (firestore.indexes.json); on SQLite the local server sweeps them (storage/sqlite/sweep.ts).
 */
export const EXPIRING_COLLECTIONS = ["idempotency", "claims", "onboard_tokens"] as const;
export const PURGE_FIELD = "purge_at";
