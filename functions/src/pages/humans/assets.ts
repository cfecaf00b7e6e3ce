/**
 * The claim and account pages' two files, served by the pages function under
 * `/account/_assets/` with a content hash in their names (cached for a year): the calendar
 * pages' stylesheet with the humans' rules after it, and the sign-in module (web/humans.ts and
 * the Firebase JS SDK, bundled by scripts/bundle-web.mjs into functions/lib/web/).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { underFunctions } from "../../disk-paths.js";
import { STYLESHEET } from "../style.js";
import { HUMANS_RULES } from "./style.js";

export const ASSETS_PATH = "/account/_assets";

const hashOf = (body: string | Buffer): string => createHash("sha256").update(body).digest("hex").slice(0, 12);

export const HUMANS_STYLESHEET = `${STYLESHEET}\n/* Claim and account pages */\n${HUMANS_RULES}\n`;
export const HUMANS_STYLESHEET_NAME = `humans.${hashOf(HUMANS_STYLESHEET)}.css`;

const BUNDLE_FILE = underFunctions("lib/web/humans.js");

export interface ClientBundle {
  name: string;
  body: Buffer;
}

let bundle: ClientBundle | undefined;

/** The sign-in module, or null when it was not built (`npm run build` builds it). */
export function clientBundle(): ClientBundle | null {
  if (bundle) return bundle;
  if (!existsSync(BUNDLE_FILE)) return null;
  const body = readFileSync(BUNDLE_FILE);
  bundle = { name: `humans.${hashOf(body)}.js`, body };
  return bundle;
}
