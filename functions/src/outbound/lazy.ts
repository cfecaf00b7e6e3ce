/**
 * The sender as the composition roots hand it down (server.ts, index.ts): built, with its
 * modules (node:https among them), on its first use, so that a process or instance that sends
 * nothing never loads them (lazy.ts).
 */
import type { Sender } from "../domain/webhooks/sender.js";
import { loadOnce } from "../lazy.js";
import type { SenderConfig } from "./send.js";

export function senderOnFirstUse(config: SenderConfig): Sender {
  const sender = loadOnce(async () => (await import("./send.js")).createSender(config));
  return async (url, headers, body, options) => (await sender())(url, headers, body, options);
}
