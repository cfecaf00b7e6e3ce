import { createHash, randomBytes } from "node:crypto";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz";
/** Uniform random string over an alphabet from a CSPRNG (rejection sampling, no modulo bias). */
export function randomString(length, alphabet = BASE62) {
    const limit = 256 - (256 % alphabet.length);
    let out = "";
    while (out.length < length) {
        for (const byte of randomBytes(length * 2)) {
            if (byte < limit)
                out += alphabet[byte % alphabet.length];
            if (out.length === length)
                break;
        }
    }
    return out;
}
export const newId = (prefix) => `${prefix}_${randomString(20)}`;
/** 43 base62 characters carry just over 256 bits. */
export const newAgentToken = () => `svc_agent_${randomString(43)}`;
export const newClaimToken = () => `svc_claim_${randomString(43)}`;
export const randomSlugSuffix = (length) => randomString(length, BASE36);
export const sha256 = (text) => createHash("sha256").update(text).digest("hex");
//# sourceMappingURL=ids.js.map