// Seeds the data of the bench through the HTTP API, as an agent would.
//   - a public calendar with 200 events of every kind (the events-read case);
//   - a public calendar with 500 events in and around March 2027, a third of them recurring
//     (the month-page case);
//   - a public calendar of 200 events in Europe/Berlin (bench/feed-events.mjs, the feed cases);
//   - the minted calendar, which the write case fills.
import { randomUUID } from "node:crypto";
import { FEED_TIMEZONE, feedEvents } from "./feed-events.mjs";

const READ_EVENTS = 200;
const PAGE_EVENTS = 500;
const PAGE_MONTH = "2027-03";
const PARALLEL = 8;
const CATEGORIES = ["launch", "team", "ops", "design", "review"];
const pad = (n) => String(n).padStart(2, "0");

async function call(origin, method, path, token, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (method === "POST") headers["idempotency-key"] = randomUUID();
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`seeding: ${method} ${path} answered ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Posts the events a few at a time (the store serializes writes anyway). */
async function postEvents(origin, token, calendarId, events) {
  for (let i = 0; i < events.length; i += PARALLEL) {
    await Promise.all(
      events.slice(i, i + PARALLEL).map((e) => call(origin, "POST", `/v1/calendars/${calendarId}/events`, token, e)),
    );
  }
}

/** 200 events: 70% one-off across 2027 (half timed), 20% weekly, 10% someday. */
function readEvents() {
  return Array.from({ length: READ_EVENTS }, (_, i) => {
    const event = {
      name: `Event ${i}`,
      category: CATEGORIES[i % CATEGORIES.length],
      notes: `Notes of event ${i}: **agenda** and a [link](https://example.com/${i}).`,
    };
    const slot = i % 10;
    if (slot < 7) {
      event.date = `2027-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`;
      if (i % 2) Object.assign(event, { start_time: `${pad(8 + (i % 9))}:00`, end_time: `${pad(9 + (i % 9))}:30` });
    } else if (slot < 9) {
      event.recur = { type: "weekly", day: 1 + (i % 7) };
      event.start_time = "09:30";
    }
    return event;
  });
}

/** 500 events: a third recurring (weekly, monthly, fortnightly, every 5 days), the rest one-off in the month. */
function pageEvents() {
  return Array.from({ length: PAGE_EVENTS }, (_, i) => {
    const event = { name: `Item ${i}`, category: CATEGORIES[i % CATEGORIES.length] };
    if (i % 3 === 0) {
      const j = i / 3;
      event.recur = [
        { type: "weekly", day: 1 + (j % 7) },
        { type: "monthly", day: j % 2 ? -1 : 1 + (j % 28) },
        { type: "weekly", day: 1 + (j % 7), interval: 2 },
        { type: "daily", interval: 5 },
      ][j % 4];
      event.recur.starts = "2027-01-01";
    } else {
      event.date = `${PAGE_MONTH}-${pad(1 + (i % 31))}`;
    }
    if (i % 2) Object.assign(event, { start_time: `${pad(7 + (i % 12))}:15`, end_time: `${pad(8 + (i % 12))}:00` });
    return event;
  });
}

export async function seed(origin) {
  const minted = await call(origin, "POST", "/v1/mint", null, { name: "Bench agent" });
  const { token } = minted;
  const read = await call(origin, "POST", "/v1/calendars", token, { name: "Bench reads", visibility: "public" });
  const page = await call(origin, "POST", "/v1/calendars", token, {
    name: "Bench month",
    visibility: "public",
    timezone: "Europe/Berlin",
  });
  const feed = await call(origin, "POST", "/v1/calendars", token, {
    name: "Bench feed",
    visibility: "public",
    timezone: FEED_TIMEZONE,
  });
  await postEvents(origin, token, read.id, readEvents());
  await postEvents(origin, token, page.id, pageEvents());
  await postEvents(origin, token, feed.id, feedEvents());
  return {
    token,
    readCalendarId: read.id,
    writeCalendarId: minted.calendar.id,
    pageSlug: page.slug,
    pageDate: `${PAGE_MONTH}-15`,
    feedCalendarId: feed.id,
    feedSlug: feed.slug,
  };
}
