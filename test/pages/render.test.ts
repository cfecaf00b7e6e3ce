/** The renderers on plain page models: periods, lenses, escaping, Markdown. */
import { describe, expect, it } from "vitest";
import { describeRecur, dateRange } from "../../functions/src/pages/format.js";
import { escapeHtml, html, trusted } from "../../functions/src/pages/html.js";
import { renderErrorPage, renderPage } from "../../functions/src/pages/layout.js";
import { MONTH_CELL_LIMIT } from "../../functions/src/pages/lenses/month.js";
import { pieceOn, placeTimed, visibleHours } from "../../functions/src/pages/lenses/week.js";
import { renderMarkdown } from "../../functions/src/pages/markdown.js";
import { colourClasses, paletteSlot, PALETTE_SIZE } from "../../functions/src/pages/colours.js";
import { plainLabel, timesHtml } from "../../functions/src/pages/parts.js";
import { allowedLenses, chooseLens, pageDate, periodFor } from "../../functions/src/pages/period.js";
import { movedLocation } from "../../functions/src/pages/redirects.js";
import { STYLESHEET, STYLESHEET_NAME } from "../../functions/src/pages/style.js";
import { executableMarkup } from "./markup.js";
import { on, pageEvent, pageModel } from "./models.js";

const count = (text: string, needle: string | RegExp): number =>
  typeof needle === "string" ? text.split(needle).length - 1 : (text.match(new RegExp(needle, "g")) ?? []).length;

describe("escaping", () => {
  it("escapes the five HTML metacharacters and leaves other text alone", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml("Plain text, émoji 🚀")).toBe("Plain text, émoji 🚀");
  });

  it("escapes interpolations in html`` but not nested templates, trusted markup or numbers", () => {
    const inner = html`<b>${"<i>"}</b>`;
    const out = html`<p title="${'"x"'}">${inner}${trusted("<br>")}${3}${null}${false}${["<", html`<hr>`]}</p>`;
    expect(out.value).toBe('<p title="&quot;x&quot;"><b>&lt;i&gt;</b><br>3&lt;<hr></p>');
  });
});

describe("Markdown", () => {
  it("renders without raw HTML, with safe links and headings below the page's own", () => {
    const out = renderMarkdown("# Title\n\n<script>alert(1)</script>\n\n[site](https://example.com) <b>bold</b>").value;
    expect(out).toContain("<h3>Title</h3>");
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain('<a href="https://example.com" rel="nofollow ugc noopener">site</a>');
    expect(out).not.toMatch(/<script|<b>/);
  });

  it("refuses javascript:, data:, vbscript: and unknown schemes, however they are spelled", () => {
    const payloads = [
      "[a](javascript:alert(1))",
      "[a](JAVASCRIPT:alert(1))",
      "[a](java&#115;cript:alert(1))",
      "[a](&#x6A;avascript:alert(1))",
      "[a](%6Aavascript:alert(1))",
      "<javascript:alert(1)>",
      "[a](vbscript:msgbox(1))",
      "[a](data:text/html;base64,PHNjcmlwdD4=)",
      "[a](intent://x)",
      "![i](javascript:alert(1))",
      '[a](https://example.com "x\\" onmouseover=\\"alert(1)")',
    ];
    for (const payload of payloads) {
      const out = renderMarkdown(payload).value;
      expect(executableMarkup(out), payload).toEqual([]);
      expect(out, payload).not.toMatch(/href="\s*intent/i);
    }
    expect(renderMarkdown("[mail](mailto:a@example.com) [rel](/c/x)").value).toMatch(
      /href="mailto:a@example.com".*href="\/c\/x"/,
    );
  });

  it("gives images no referrer", () => {
    expect(renderMarkdown("![logo](https://example.com/a.png)").value).toContain('referrerpolicy="no-referrer"');
  });
});

describe("periods and lenses", () => {
  it("allows every lens when none are set, else the set ones in canonical order", () => {
    expect(allowedLenses(null)).toEqual(["month", "week", "schedule", "timeline"]);
    expect(allowedLenses([])).toEqual(["month", "week", "schedule", "timeline"]);
    expect(allowedLenses(["timeline", "week"])).toEqual(["week", "timeline"]);
  });

  it("picks ?view= when allowed, else the default view, else the first allowed lens", () => {
    expect(chooseLens("week", ["month", "week"], null)).toBe("week");
    expect(chooseLens("timeline", ["month", "week"], "week")).toBe("week");
    expect(chooseLens("timeline", ["schedule", "timeline"], "month")).toBe("timeline"); // ?view= allowed wins
    expect(chooseLens("bogus", ["week", "schedule"], "month")).toBe("week"); // default not allowed: first allowed
    expect(chooseLens(["week"], ["month", "week"], null)).toBe("month"); // repeated parameter: ignored
  });

  it("reads ?date= when it is a real date from 1900 to 2199, else today", () => {
    expect(pageDate("2027-02-28", "2026-11-24")).toBe("2027-02-28");
    for (const bad of ["2027-02-29", "2027-2-1", "tomorrow", "1899-12-31", "2200-01-01", undefined, ["2027-01-01"]]) {
      expect(pageDate(bad, "2026-11-24")).toBe("2026-11-24");
    }
  });

  it("covers whole weeks around a month, an ISO week, four weeks, or three months", () => {
    expect(periodFor("month", "2026-11-24")).toEqual({
      from: "2026-10-26",
      to: "2026-12-06",
      label: "November 2026",
      prev: "2026-10-01",
      next: "2026-12-01",
    });
    expect(periodFor("week", "2026-11-29")).toEqual({
      from: "2026-11-23",
      to: "2026-11-29",
      label: "Nov 23 – 29, 2026",
      prev: "2026-11-16",
      next: "2026-11-30",
    });
    expect(periodFor("week", "2026-12-30").label).toBe("Dec 28, 2026 – Jan 3, 2027");
    expect(periodFor("schedule", "2026-11-24")).toEqual({
      from: "2026-11-24",
      to: "2026-12-21",
      label: "Nov 24 – Dec 21, 2026",
      prev: "2026-10-27",
      next: "2026-12-22",
    });
    expect(periodFor("timeline", "2026-11-24")).toEqual({
      from: "2026-11-01",
      to: "2027-01-31",
      label: "Nov 2026 – Jan 2027",
      prev: "2026-08-01",
      next: "2027-02-01",
    });
  });

  it("stops the previous and next links at the edges of the supported years", () => {
    expect(periodFor("month", "1900-01-15").prev).toBeNull();
    expect(periodFor("month", "2199-12-15").next).toBeNull();
    expect(periodFor("schedule", "1900-01-20").prev).toBeNull();
  });

  it("describes repetition in words", () => {
    expect(describeRecur({ type: "daily" })).toBe("every day");
    expect(describeRecur({ type: "weekly", day: 0, interval: 2 })).toBe("every 2 weeks on Sunday");
    expect(describeRecur({ type: "weekly", day: 1 })).toBe("every week on Monday");
    expect(describeRecur({ type: "monthly", day: -1 })).toBe("every month on the last day");
    expect(describeRecur({ type: "monthly", day: 22 })).toBe("every month on the 22nd");
    expect(describeRecur({ type: "monthly", day: 11 })).toBe("every month on the 11th");
    expect(describeRecur({ type: "yearly", month: 3, day: 14 })).toBe("every year on March 14");
    expect(dateRange("2026-11-30", "2026-12-06")).toBe("Nov 30 – Dec 6, 2026");
  });

  it("colours a category by its name alone, or by its owner's colour", () => {
    const colourOf = colourClasses({ team: { color: "#1f6b57" } });
    expect(colourOf("team")).toBe("own-1f6b57");
    expect(colourOf("design")).toBe(`cat-${paletteSlot("design")}`);
    expect(colourClasses(null)("design")).toBe(colourOf("design"));
    expect(colourClasses(null)("constructor")).toMatch(/^cat-\d+$/);
    const slots = new Set(Array.from({ length: 200 }, (_, i) => paletteSlot(`category ${i}`)));
    expect(slots.size).toBe(PALETTE_SIZE);
  });
});

describe("the page shell", () => {
  it("has a language, a title, the stylesheet, landmarks and no script", () => {
    const page = renderPage(pageModel({ purpose: "We **ship**." }));
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain("<title>Launch Plan · November 2026</title>");
    expect(page).toContain(`<link rel="stylesheet" href="/c/_assets/${STYLESHEET_NAME}">`);
    expect(page).toContain('<link rel="alternate" type="text/calendar" title="Launch Plan" href="/c/launch-plan.ics">');
    for (const landmark of ["<header", "<nav", "<main", "<footer"]) expect(page).toContain(landmark);
    expect(page).toContain("<p>We <strong>ship</strong>.</p>");
    expect(page).toContain('href="/c/launch-plan/purpose.md"');
    // One Subscribe control: the calendar apps' own ways in, and the feed's address to copy.
    expect(page).toContain('<details class="subscribe">\n<summary>Subscribe</summary>');
    expect(page).toContain(
      '<a href="webcal://almanac.example/c/launch-plan.ics">Apple Calendar or Outlook on the desktop</a>',
    );
    expect(page).toContain(
      '<a href="https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Falmanac.example%2Fc%2Flaunch-plan.ics">' +
        "Google Calendar</a>",
    );
    expect(page).toContain('readonly value="https://almanac.example/c/launch-plan.ics">');
    expect(page).not.toMatch(/<script|style=/i);
    expect(page).not.toContain('name="robots"');
  });

  it("marks noindex pages, and links a view page's stylesheet under /v/", () => {
    const page = renderPage(
      pageModel({
        kind: "view",
        noindex: true,
        links: { purposeMarkdown: null, feed: "/v/abc.ics", subscribe: null, occurrencesApi: null },
      }),
    );
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).toContain(`href="/v/_assets/${STYLESHEET_NAME}"`);
    expect(page).not.toContain("/c/");
  });

  it("links the allowed lenses (the current one marked) and the previous, current and next periods", () => {
    const page = renderPage(pageModel({ lens: "week", lenses: ["month", "week"] }));
    expect(page).toContain('<a href="?view=month&amp;date=2026-11-24">Month</a>');
    expect(page).toContain('<a href="?view=week&amp;date=2026-11-24" aria-current="page">Week</a>');
    expect(page).not.toContain("view=schedule");
    expect(page).toContain('href="?view=week&amp;date=2026-11-16" rel="prev"');
    expect(page).toContain('href="?view=week&amp;date=2026-11-30" rel="next"');
    expect(page).toContain('<a href="?view=week">Today</a>');
    expect(page).toContain('<input type="hidden" name="view" value="week">');
  });

  it("renders error pages as noindex HTML", () => {
    const page = renderErrorPage("v", "Not <found>", "Check the link.", 404);
    expect(page).toContain("<h1>Not &lt;found&gt;</h1>");
    expect(page).toContain('content="noindex"');
    expect(page).toContain("/v/_assets/");
  });
});

describe("month lens", () => {
  it("draws whole weeks with day numbers, today marked, events with times, art and layer", () => {
    const kickoff = pageEvent({
      name: "Kickoff",
      date: "2026-11-23",
      start_time: "09:30",
      end_time: "10:30",
      art: "🚀",
      category: "planning",
    });
    const review = pageEvent({
      name: "Design review",
      kind: "recurring",
      recur: { type: "weekly", day: 3 },
      layer: "design",
      start_time: "14:00",
    });
    const page = renderPage(
      pageModel({ occurrences: [on("2026-11-23", kickoff), on("2026-11-25", review), on("2026-12-02", review)] }),
    );
    expect(count(page, /<td class="day/)).toBe(42);
    expect(count(page, "<tr>")).toBe(7); // header + six weeks
    expect(page).toContain('<td class="day today empty" aria-current="date">');
    expect(page).toMatch(
      /<td class="day other-month empty"><a class="day-link" href="\?view=week&amp;date=2026-10-26"><time datetime="2026-10-26">/,
    );
    expect(page).toContain(
      '<li class="ev is-one-off cat-0" title="09:30–10:30 Kickoff"><span class="when">' +
        '<time datetime="2026-11-23T09:30">09:30</time>–<time datetime="2026-11-23T10:30">10:30</time></span>' +
        '<span class="art">🚀</span><span class="name">Kickoff</span></li>',
    );
    expect(count(page, '<span class="layer"><span class="visually-hidden">layer </span>design</span>')).toBe(2);
  });

  it(`folds a day's occurrences beyond ${MONTH_CELL_LIMIT} behind a "more" toggle`, () => {
    const events = Array.from({ length: 6 }, (_, i) =>
      on("2026-11-10", pageEvent({ name: `Event ${i}`, date: "2026-11-10" })),
    );
    const page = renderPage(pageModel({ occurrences: events }));
    expect(page).toContain('<details class="more"><summary>3 more</summary>');
    expect(count(page, '<li class="ev')).toBe(6);
  });

  it("shows an https art URL as an image without referrer, and other art as text", () => {
    const page = renderPage(
      pageModel({
        occurrences: [
          on("2026-11-10", pageEvent({ name: "Coin", date: "2026-11-10", art: "https://img.example.com/c.png" })),
        ],
      }),
    );
    expect(page).toContain(
      '<img class="art" src="https://img.example.com/c.png" alt="" width="20" height="20" decoding="async" referrerpolicy="no-referrer">',
    );
    const text = renderPage(
      pageModel({
        occurrences: [
          on("2026-11-10", pageEvent({ name: "X", date: "2026-11-10", art: "http://insecure.example.com/x.png" })),
        ],
      }),
    );
    expect(text).toContain('<span class="art">http://insecure.example.com/x.png</span>');
  });

  it("links day numbers to the week lens, else the schedule, else nowhere", () => {
    expect(renderPage(pageModel({ lenses: ["month", "schedule"] }))).toContain(
      'href="?view=schedule&amp;date=2026-11-01"',
    );
    expect(renderPage(pageModel({ lenses: ["month"] }))).not.toContain('class="day-link"');
  });
});

describe("week lens", () => {
  it("places timed events on quarter-hour rows and untimed ones at the top", () => {
    const standup = pageEvent({ name: "Standup", date: "2026-11-23", start_time: "09:00", end_time: "09:15" });
    const allDay = pageEvent({ name: "Offsite", date: "2026-11-24" });
    const page = renderPage(
      pageModel({ lens: "week", occurrences: [on("2026-11-23", standup), on("2026-11-24", allDay)] }),
    );
    // 08:00 to 18:00 by default: 40 rows, the week's; 09:00 is row 5; a 15-minute event is drawn half an hour long.
    expect(page).toContain('<div class="week slots-40">');
    expect(page).toContain(
      '<ol class="timed lanes-1"><li class="ev is-one-off at-5 len-2 lane-all short" title="09:00–09:15 Standup">',
    );
    expect(page).toContain(
      '<ul class="untimed"><li class="ev is-one-off" title="Offsite"><span class="name">Offsite</span></li></ul>',
    );
    expect(count(page, '<section class="wday')).toBe(7);
    expect(page).toMatch(/<section class="wday today" aria-labelledby="day-2026-11-24">/);
    expect(count(page, /<li class="at-\d+"><span>\d\d:00<\/span><\/li>/)).toBe(10);
  });

  it("widens the hours to the week's earliest and latest events", () => {
    const early = pageEvent({ name: "Early", date: "2026-11-23", start_time: "06:30", end_time: "07:00" });
    const late = pageEvent({ name: "Late", date: "2026-11-23", start_time: "21:00" });
    const pieces = [on("2026-11-23", early), on("2026-11-23", late)].map((o) => pieceOn(o, o.date));
    expect(visibleHours(pieces)).toEqual({ first: 6, last: 22 });
    expect(visibleHours([])).toEqual({ first: 8, last: 18 });
  });

  it("puts overlapping events side by side in lanes", () => {
    const at = (name: string, start: string, end: string) =>
      pieceOn(
        on("2026-11-26", pageEvent({ name, date: "2026-11-26", start_time: start, end_time: end })),
        "2026-11-26",
      );
    const { placed, lanes } = placeTimed([
      at("A", "11:00", "12:00"),
      at("B", "11:30", "12:30"),
      at("C", "12:00", "13:00"),
      at("D", "15:00", "16:00"),
    ]);
    expect(lanes).toBe(2);
    expect(placed.map((p) => [p.o.event.name, p.lane, p.alone])).toEqual([
      ["A", 0, false],
      ["B", 1, false],
      ["C", 0, false],
      ["D", 0, true],
    ]);
  });
});

describe("overnight occurrences", () => {
  const shift = pageEvent({ name: "Night shift", date: "2026-11-22", start_time: "22:00", end_time: "02:00" });

  it("mark an end on the next day with +1, and none for an end at midnight", () => {
    expect(timesHtml(on("2026-11-24", shift)).toString()).toBe(
      '<span class="when"><time datetime="2026-11-24T22:00">22:00</time>–<time datetime="2026-11-25T02:00">02:00</time>' +
        '<abbr class="next-day" title="the next day">+1</abbr></span>',
    );
    const midnight = on("2026-11-24", shift, { end_time: "00:00" });
    expect(timesHtml(midnight).toString()).not.toContain("next-day");
    expect(plainLabel(on("2026-11-24", shift), shift)).toBe("22:00–02:00 (+1) Night shift");
  });

  it("continue on the week's first day from the day before, noted above the grid when they end before it", () => {
    const page = renderPage(pageModel({ lens: "week", continuing: [on("2026-11-22", shift)] }));
    const monday = page.slice(
      page.indexOf('aria-labelledby="day-2026-11-23"'),
      page.indexOf('aria-labelledby="day-2026-11-24"'),
    );
    // The grid keeps to the working day: the rest of the night is noted above Monday's grid.
    expect(monday).toContain(
      '<ul class="untimed"><li class="ev is-one-off continued" title="22:00–02:00 (+1) Night shift">',
    );
    expect(page).not.toContain('<li class="at-1"><span>00:00</span></li>');
    expect(monday).toContain('until <time datetime="2026-11-23T02:00">02:00</time>');
    expect(page).not.toContain('aria-labelledby="day-2026-11-22"');
  });

  it("are drawn to midnight and on every later day they run into", () => {
    // 23 hours from 23:00, placed in a zone where that crosses two midnights (a 23-hour day).
    const long = on("2026-11-23", shift, { start_time: "23:00", end_time: "00:30", end_date: "2026-11-25" });
    expect(pieceOn(long, "2026-11-23")).toMatchObject({ start: 92, end: 96, continued: false, continues: true });
    expect(pieceOn(long, "2026-11-24")).toMatchObject({ start: 0, end: 96, continued: true, continues: true });
    expect(pieceOn(long, "2026-11-25")).toMatchObject({ start: 0, end: 2, continued: true, continues: false });
  });
});

describe("schedule lens", () => {
  it("groups occurrences by day with notes as Markdown, then lists someday events", () => {
    const briefing = pageEvent({
      name: "Press briefing",
      date: "2026-11-26",
      start_time: "11:00",
      category: "marketing",
      notes: "Bring the **deck**.",
    });
    const standup = pageEvent({ name: "Standup", kind: "recurring", recur: { type: "weekly", day: 4 } });
    const postmortem = pageEvent({ name: "Write the postmortem", notes: "x".repeat(300) });
    const page = renderPage(
      pageModel({
        lens: "schedule",
        occurrences: [on("2026-11-24", standup), on("2026-11-26", briefing), on("2026-11-26", standup)],
        someday: [postmortem],
      }),
    );
    expect(count(page, '<section class="agenda-day')).toBe(2);
    expect(page).toContain(
      '<h3 id="day-2026-11-24" aria-current="date">' +
        '<time datetime="2026-11-24">Tuesday, November 24, 2026</time> <span class="badge">Today</span></h3>',
    );
    expect(page).toContain('<div class="notes"><p>Bring the <strong>deck</strong>.</p>\n</div>');
    expect(page).toContain('<span class="repeats">Repeats every week on Thursday</span>');
    expect(page).toContain('<span class="when all-day">All day</span>');
    expect(page).toContain('<h2 id="someday-heading">Someday</h2>');
    expect(page).toContain('<details class="notes"><summary>Notes</summary>'); // long notes fold
  });

  it("says so when nothing is scheduled", () => {
    const page = renderPage(pageModel({ lens: "schedule" }));
    expect(page).toContain("Nothing scheduled from Nov 24 – Dec 21, 2026.");
    expect(page).toContain("No someday plans.");
  });
});

describe("timeline lens", () => {
  it("draws each event over its days, one bar per series, a lane per layer and a someday lane", () => {
    const launch = pageEvent({ name: "Launch", date: "2026-12-03" });
    const review = pageEvent({ name: "Review", kind: "recurring", recur: { type: "weekly", day: 3 }, layer: "design" });
    const idea = pageEvent({ name: "Idea" });
    const page = renderPage(
      pageModel({
        lens: "timeline",
        occurrences: [
          on("2026-11-04", review),
          on("2026-11-11", review),
          on("2026-12-03", launch),
          on("2027-01-27", review),
        ],
        someday: [idea],
      }),
    );
    // Days from Monday Oct 26 to Sunday Jan 31: 98 columns; Dec 3 is day 39, a day long, with room for its label.
    expect(page).toContain('class="timeline days-98"');
    expect(page).toContain('<li class="ev is-one-off tl-item d-39 l-12"><span class="tl-bar l-1" aria-hidden="true">');
    // The series from Nov 4 (day 10) to Jan 27 (day 94).
    expect(page).toContain(
      '<li class="ev is-recurring tl-item d-10 l-85"><span class="tl-bar l-85" aria-hidden="true">',
    );
    expect(page).toContain("every week on Wednesday · 3 in view");
    expect(page).toMatch(
      /<h3 class="lane-name" id="lane-main">Launch Plan<\/h3>.*<h3 class="lane-name" id="lane-l-design">design/s,
    );
    expect(page).toContain(
      '<h3 class="lane-name" id="lane-someday">Someday</h3>' +
        '<ul class="lane-items"><li class="ev is-someday"><span class="name">Idea</span></li></ul>',
    );
    expect(page).toContain('<li class="d-29 l-7 now">23</li>'); // today's week on the scale
  });

  it("draws durations to scale and says a rule's count once", () => {
    const oneOnOne = pageEvent({ name: "1:1", date: "2026-11-25", start_time: "10:00", end_time: "10:30" });
    const offsite = pageEvent({ name: "Offsite", date: "2026-12-02" });
    const training = pageEvent({
      name: "Training",
      kind: "recurring",
      recur: { type: "daily", starts: "2026-12-07", count: 3 },
    });
    const page = renderPage(
      pageModel({
        lens: "timeline",
        occurrences: [
          on("2026-11-25", oneOnOne),
          on("2026-12-02", offsite, { end_date: "2026-12-04" }),
          ...["2026-12-07", "2026-12-08", "2026-12-09"].map((d) => on(d, training)),
        ],
      }),
    );
    expect(page).toContain('<li class="ev is-one-off tl-item d-31 l-12"><span class="tl-bar l-1" aria-hidden="true">');
    expect(page).toContain('<li class="ev is-one-off tl-item d-38 l-12"><span class="tl-bar l-3" aria-hidden="true">');
    expect(page).toContain('<time datetime="2026-12-02">Dec 2</time> – <time datetime="2026-12-04">Dec 4</time>');
    expect(page).toContain('<span class="repeats">every day, 3 times</span>');
  });

  it("gives a series bar its time of day, each one once when the page's zone shifts it", () => {
    const standup = pageEvent({
      name: "Standup",
      kind: "recurring",
      recur: { type: "daily" },
      start_time: "03:30",
      end_time: "03:45",
      layer: "berlin",
    });
    const page = renderPage(
      pageModel({
        lens: "timeline",
        date: "2027-03-01",
        occurrences: [
          on("2027-03-12", standup),
          on("2027-03-13", standup),
          on("2027-03-15", standup, { start_time: "04:30", end_time: "04:45" }),
          on("2027-03-16", standup, { start_time: "04:30", end_time: "04:45" }),
        ],
      }),
    );
    expect(page).toContain(
      '<time datetime="2027-03-16">Mar 16</time>, <span class="when"><time datetime="2027-03-12T03:30">03:30</time>–' +
        '<time datetime="2027-03-12T03:45">03:45</time></span> or <span class="when"><time datetime="2027-03-15T04:30">' +
        '04:30</time>–<time datetime="2027-03-15T04:45">04:45</time></span></span>',
    );
  });
});

describe("the stylesheet", () => {
  it("has light and dark schemes, narrow-screen layouts and every generated position", () => {
    expect(STYLESHEET).toContain("@media (prefers-color-scheme:dark)");
    expect(STYLESHEET).toContain("@media (max-width:40rem)");
    for (const rule of [".slots-96{", ".at-96{", ".len-96{", ".lanes-3{", ".days-98{", ".d-98{", ".l-98{", ".cat-7{"])
      expect(STYLESHEET).toContain(rule);
    expect(STYLESHEET_NAME).toMatch(/^style\.[0-9a-f]{12}\.css$/);
  });
});

describe("redirect locations for earlier slugs", () => {
  it("keep everything after the slug: feed suffix, sub-path and query", () => {
    expect(movedLocation("/c/old", "new")).toBe("/c/new");
    expect(movedLocation("/c/old?view=week&date=2026-12-01", "new")).toBe("/c/new?view=week&date=2026-12-01");
    expect(movedLocation("/c/old.ics?x=1", "new")).toBe("/c/new.ics?x=1");
    expect(movedLocation("/c/old/purpose.md", "new")).toBe("/c/new/purpose.md");
    expect(movedLocation("/c/old/", "new")).toBe("/c/new/");
    expect(movedLocation("/c/old.icsx", "new")).toBe("/c/new");
  });
});
