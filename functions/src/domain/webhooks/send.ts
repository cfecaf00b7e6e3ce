/**
 * TEMPORARY: the old sending call, kept so that webhook delivery (stream.ts, runner.ts) keeps
 * compiling while it is rewritten to take a `Sender` (sender.ts) from its caller. The sender
 * lives in the entry layer (outbound/send.ts); delete this file with the last import of it.
 */
export { postJson, type LegacySendOptions as SendOptions } from "../../outbound/send.js";
export type { SendResult } from "./sender.js";
