/**
 * The stylesheet as browsers read it: its rules are written one a line in template literals,
 * where a backslash ends a line that a rule continues on. A doubled backslash would reach the
 * CSS instead, and the browser would drop the declaration after it.
 */
import { describe, expect, it } from "vitest";
import { STYLESHEET } from "../../functions/src/pages/style.js";

describe("the stylesheet's text", () => {
  it("holds no backslash and balances its braces", () => {
    expect(STYLESHEET).not.toContain("\\");
    expect(STYLESHEET.split("{").length).toBe(STYLESHEET.split("}").length);
  });
});
