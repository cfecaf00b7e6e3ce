import { describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import { checkFeedUrl } from "../../functions/src/domain/feeds/url.js";

const policy = { allowLoopback: false };

describe("checkFeedUrl", () => {
  it("reads a webcal: address over https, as calendar apps do", () => {
    expect(checkFeedUrl("webcal://p01-calendars.icloud.com/published/2/abc", policy)).toBe(
      "https://p01-calendars.icloud.com/published/2/abc",
    );
    expect(checkFeedUrl("WEBCAL://calendar.example/team.ics", policy)).toBe("https://calendar.example/team.ics");
  });

  it("refuses http:, other schemes, credentials and private hosts with the field named", () => {
    for (const [url, message] of [
      ["http://calendar.example/team.ics", /must use https:/],
      ["ftp://calendar.example/team.ics", /must use https:/],
      ["https://user:secret@calendar.example/team.ics", /user name or password/],
      ["https://10.0.0.1/team.ics", /a feed must be on a public host/],
      ["webcal://169.254.169.254/latest", /a feed must be on a public host/],
      ["not a url", /absolute https: URL/],
    ] as const) {
      let refusal: unknown;
      try {
        checkFeedUrl(url, policy);
      } catch (err) {
        refusal = err;
      }
      expect(refusal, url).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).message, url).toMatch(message);
      expect((refusal as DomainError).details, url).toMatchObject({ field: "feed_url" });
    }
  });
});
