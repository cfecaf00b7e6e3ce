/**
 * The headers of every calendar page, public or opened from the account page: no script at all,
 * styles only from our own stylesheet, images from https (event art), forms only to ourselves
 * (the date picker), no framing, no referrer (a share view's address is its capability).
 */
import helmet from "helmet";

export const pageHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "https:"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: "no-referrer" },
});
