/**
 * Records that expire (docs/api.md#exactly-once-and-retention): idempotency records after 24 hours,
 * claim links after 7 days, onboard tokens after 30 minutes, the change feed's changes
 * (`calendars/{id}/shards/{n}/changes`) after 7 days; the authorization server's pending requests and
 * codes minutes after they expire, refresh tokens with their expiry, clients 90 days after last use. Each name is a collection group, as
 * Firestore's TTL policies apply. Each carries `purge_at` (a Date), the instant after which
 * nothing reads it any more. On Firestore a TTL policy on that field deletes them
 * (firestore.indexes.json); on SQLite the local server sweeps them (storage/sqlite/sweep.ts).
 */
export const EXPIRING_COLLECTIONS = [
  "idempotency",
  "claims",
  "onboard_tokens",
  "changes",
  "oauth_clients",
  "oauth_requests",
  "oauth_codes",
  "oauth_refresh_tokens",
] as const;
export const PURGE_FIELD = "purge_at";

/** How long the change feed keeps a change (docs/api.md#change-feed): an older cursor is `410 cursor_expired`. */
export const CHANGE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
