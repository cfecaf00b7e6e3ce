import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { expectError, get, patch, post } from "../helpers/http.js";
import { mintAgent, newCalendar } from "../helpers/factories.js";

const t = appPerTest();

describe("calendar categories and locale", () => {
  it("climbs 400 -> success for category colours, stores them and answers them", async () => {
    const scout = await mintAgent(t);
    const refused = async (body: object, field: string) => {
      const res = await post(t, "/v1/calendars", scout.auth).send({ name: "Team", ...body });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toContain(field);
      return res.body.error.message as string;
    };
    expect(await refused({ categories: { team: { color: "teal" } } }, "categories")).toMatch(/#rrggbb/);
    expect(await refused({ categories: { team: { color: "#12345" } } }, "categories")).toMatch(/#rrggbb/);
    expect(await refused({ categories: { team: { color: "#123456", text: "#fff" } } }, "categories")).toMatch(/text/);
    expect(await refused({ categories: { team: "#123456" } }, "categories")).toBeTruthy();
    expect(await refused({ categories: { "  ": { color: "#123456" } } }, "categories")).toMatch(/empty/);
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, { color: "#123456" }]));
    expect(await refused({ categories: many }, "categories")).toMatch(/at most 64/);

    const cal = await newCalendar(t, scout, { categories: { team: { color: "#1F6B57" } } });
    expect(cal.categories).toEqual({ team: { color: "#1f6b57" } });
    expect((await get(t, `/v1/calendars/${cal.id}`, scout.auth)).body.categories).toEqual({
      team: { color: "#1f6b57" },
    });
    const changed = await patch(t, `/v1/calendars/${cal.id}`, scout.auth).send({
      categories: { hiring: { color: "#b45309" } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.categories).toEqual({ hiring: { color: "#b45309" } });
    const cleared = await patch(t, `/v1/calendars/${cal.id}`, scout.auth).send({ categories: null });
    expect(cleared.body.categories).toEqual({});
  });

  it("takes a BCP 47 locale Intl knows, in its canonical spelling, and null for the reader's", async () => {
    const scout = await mintAgent(t);
    const bad = await post(t, "/v1/calendars", scout.auth).send({ name: "Team", locale: "not a locale" });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details.field).toBe("locale");
    expect(bad.body.error.message).toMatch(/BCP 47/);
    const cal = await newCalendar(t, scout, { locale: "de-de" });
    expect(cal.locale).toBe("de-DE");
    const cleared = await patch(t, `/v1/calendars/${cal.id}`, scout.auth).send({ locale: null });
    expect(cleared.body.locale).toBeNull();
    expect((await newCalendar(t, scout)).locale).toBeNull();
  });
});
