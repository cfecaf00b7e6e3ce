import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Uniform random string over an alphabet from a CSPRNG (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet = BASE62): string {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** The prefix of each kind of record id: agents, calendars, events, grants, access requests, views, layers, credentials, webhooks. */
export type IdPrefix = "agt" | "cal" | "evt" | "grt" | "areq" | "viw" | "lyr" | "cred" | "whk";

/** After the prefix and `_`: letters and digits only (ours are 20), so an id is always one path segment. */
const ID_BODY = /^[A-Za-z0-9]{1,64}$/;

/** Whether `value` is an id of that kind (docs/api.md#ids-and-text): `cal_` then [A-Za-z0-9], nothing else. */
export const isIdOf = (prefix: IdPrefix, value: unknown): value is string =>
  typeof value === "string" && value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomString(20)}`;

/** 43 base62 characters carry just over 256 bits. */
export const newAgentToken = (): string => `svc_agent_${randomString(43)}`;
export const newClaimToken = (): string => `svc_claim_${randomString(43)}`;
export const newOnboardToken = (): string => `svc_onboard_${randomString(43)}`;
export const randomSlugSuffix = (length: number): string => randomString(length, BASE36);

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
