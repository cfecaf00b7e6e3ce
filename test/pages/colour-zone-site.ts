/**
 * A Berlin team calendar for the colour, legend, reader's zone and locale tests: a daily
 * standup ("team"), a launch review in an owner colour ("launch"), a December hiring panel (a
 * category new in December), and a New York layer's usability study, 09:00-17:00 in New York.
 */
import type { TestApp } from "../helpers/app.js";
import {
  attachLayer,
  mintAgent,
  newCalendar,
  newEvent,
  type Calendar,
  type MintedAgent,
} from "../helpers/factories.js";

export const TEAM_SLUG = "berlin-team";
export const LAUNCH_COLOUR = "#1f6b57";

export interface ColourZoneSite {
  owner: MintedAgent;
  team: Calendar;
  study: { id: string };
}

export async function seedColourZoneSite(t: Pick<TestApp, "app">): Promise<ColourZoneSite> {
  const owner = await mintAgent(t, "Coordinator");
  const team = await newCalendar(t, owner.auth, {
    name: "Berlin team",
    slug: TEAM_SLUG,
    timezone: "Europe/Berlin",
    visibility: "public",
    categories: { launch: { color: LAUNCH_COLOUR } },
  });
  const lab = await newCalendar(t, owner.auth, {
    name: "NYC lab",
    slug: "nyc-lab",
    timezone: "America/New_York",
    visibility: "public",
  });
  const inTeam = (body: Record<string, unknown>) => newEvent(t, owner.auth, team.id, body);
  await inTeam({
    name: "Standup",
    recur: { type: "daily", starts: "2026-11-16" },
    start_time: "09:30",
    end_time: "09:45",
    category: "team",
  });
  await inTeam({
    name: "Launch review",
    date: "2026-11-25",
    start_time: "14:00",
    end_time: "15:00",
    category: "launch",
  });
  await inTeam({
    name: "Hiring panel",
    date: "2026-12-10",
    start_time: "11:00",
    end_time: "12:00",
    category: "hiring",
  });
  const study = await newEvent(t, owner.auth, lab.id, {
    name: "Usability study",
    date: "2026-12-09",
    start_time: "09:00",
    end_time: "17:00",
    category: "research",
  });
  await attachLayer(t, owner.auth, team.id, lab.id, "nyc-lab");
  return { owner, team, study };
}
