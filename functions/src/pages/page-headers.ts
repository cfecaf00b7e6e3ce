/**
 * The headers of every calendar page, public or opened from the account page: no script at all,
 * styles only from our own stylesheet, images from https (event art), forms only to ourselves
 * (the date picker), no framing, no referrer (a share view's address is its capability). The
 * embeddable variant (`?embed=1`, embed.ts) alone may be framed, by any site.
 */
import type { Response } from "express";
import helmet from "helmet";

const directives = {
  defaultSrc: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", "https:"],
  formAction: ["'self'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
};

export const pageHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives },
  referrerPolicy: { policy: "no-referrer" },
});

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const FRAMEABLE_POLICY = Object.entries({ ...directives, frameAncestors: ["*"] })
  .map(([name, values]) => `${kebab(name)} ${values.join(" ")}`)
  .join(";");

/** The same policy with `frame-ancestors *`, and no X-Frame-Options (helmet's SAMEORIGIN would still refuse). */
export function allowFraming(res: Response): void {
  res.setHeader("Content-Security-Policy", FRAMEABLE_POLICY);
  res.removeHeader("X-Frame-Options");
}
