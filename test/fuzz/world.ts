/**
 * The records the fuzzer aims at: an owner with public, unlisted and private calendars full of
 * one-off, recurring and someday events, share views, layers, grants and access requests; a
 * reader, a stranger, and a revoked token; and, in its pools, the heavy host (heavy.ts). Seeded through the API, so the records are exactly
 * what clients create. The fuzzer deletes and changes records as it goes, so the test seeds
 * a fresh world every few hundred requests to keep half of its ids real.
 */
import request from "supertest";
import type { TestApp } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";
import type { Heavy } from "./heavy.js";

type Auth = { Authorization: string };
type Body = Record<string, unknown>;

/** Ids of live records by kind; path parameters `{xxxId}` and body fields `xxx_id` draw from these. */
export interface Pools {
  calendar: string[];
  event: string[];
  view: string[];
  layer: string[];
  grant: string[];
  request: string[];
  credential: string[];
  agent: string[];
  /** Calendar slugs (current, earlier and private ones) and share view slugs, for pages and feeds. */
  calendarSlug: string[];
  viewSlug: string[];
  /** `calendarId/kind/childId` paths of real records, for path-injection attempts. */
  recordPath: string[];
}

export interface World {
  pools: Pools;
  /** Bearer tokens by caller; the fuzzer adds no token and garbage ones itself. */
  tokens: { owner: string; ownerNoGrantsScope: string; reader: string; stranger: string; revoked: string };
}

let worldCounter = 0;

export async function seedWorld(t: Pick<TestApp, "app">, heavy: Heavy): Promise<World> {
  const n = ++worldCounter;
  const api = new Seeder(t);
  const owner = await mintAgent(t, `Fuzz Owner ${n}`);
  const reader = await mintAgent(t, `Fuzz Reader ${n}`);
  const stranger = await mintAgent(t, `Fuzz Stranger ${n}`);

  const launch = await api.calendar(owner, {
    name: `Launch ${n}`,
    visibility: "public",
    timezone: "Europe/Berlin",
    purpose: "Everything for the **launch**.\n\n- milestones\n- reviews",
    default_view: "month",
    views: ["month", "week", "schedule", "timeline"],
  });
  const secret = await api.calendar(owner, {
    name: `Secret ${n}`,
    visibility: "private",
    timezone: "America/New_York",
  });
  const design = await api.calendar(owner, { name: `Design ${n}`, visibility: "public", timezone: "Asia/Kathmandu" });
  const strangers = await api.calendar(stranger, { name: `Elsewhere ${n}`, visibility: "private" });

  const events: string[] = [];
  const recordPath: string[] = [];
  const event = async (agent: MintedAgent, calendarId: string, body: Body) => {
    const id = await api.create(agent, `/v1/calendars/${calendarId}/events`, body);
    events.push(id);
    recordPath.push(`${calendarId}/events/${id}`);
  };
  await event(owner, launch.id, {
    name: "Kickoff",
    date: "2026-11-24",
    start_time: "09:00",
    end_time: "10:30",
    category: "launch",
    notes: "Bring\tslides\n",
    art: "🚀",
  });
  await event(owner, launch.id, {
    name: "Standup",
    recur: { type: "daily" },
    start_time: "09:15",
    end_time: "09:30",
    category: "team",
  });
  await event(owner, launch.id, {
    name: "Review",
    recur: { type: "weekly", day: 2, interval: 2, starts: "2026-11-02", until: "2027-06-30" },
    start_time: "22:30",
    end_time: "23:59",
  });
  await event(owner, launch.id, { name: "Month end", recur: { type: "monthly", day: 31 } });
  await event(owner, launch.id, { name: "Leap day", recur: { type: "yearly", month: 2, day: 29 } });
  await event(owner, launch.id, { name: "Someday retro", category: "team" });
  await event(owner, launch.id, { name: "DST switch", date: "2027-03-28", start_time: "02:30", end_time: "03:30" });
  await event(owner, secret.id, { name: "Secret meeting", date: "2026-11-25", start_time: "14:00" });
  await event(owner, secret.id, { name: "Secret daily", recur: { type: "daily", interval: 1 }, start_time: "07:00" });
  await event(owner, design.id, {
    name: "Design crit",
    recur: { type: "weekly", day: 4 },
    start_time: "16:00",
    end_time: "17:00",
    category: "design",
  });
  await event(stranger, strangers.id, { name: "Stranger thing", date: "2026-12-01" });

  const layers = [
    await api.create(owner, `/v1/calendars/${launch.id}/layers`, { calendar_id: design.id, key: "design" }),
    await api.create(owner, `/v1/calendars/${launch.id}/layers`, { calendar_id: secret.id, key: "secret" }),
  ];
  const views = [
    await api.createFull(owner, `/v1/calendars/${launch.id}/views`, { name: "Everything" }),
    await api.createFull(owner, `/v1/calendars/${launch.id}/views`, {
      name: "Design only",
      filter: {
        layers: ["design"],
        categories: ["design"],
        from: "2026-11-01",
        to: "2027-12-31",
        include_someday: false,
      },
      display: { default_view: "schedule", views: ["schedule", "month"] },
    }),
    await api.createFull(owner, `/v1/calendars/${secret.id}/views`, {
      name: "Secret share",
      filter: { include_recurring: false },
    }),
  ];
  recordPath.push(
    `${launch.id}/views/${views[0].id}`,
    `${secret.id}/views/${views[2].id}`,
    `${launch.id}/layers/${layers[1]}`,
  );

  const grants = [
    await api.create(owner, `/v1/calendars/${secret.id}/grants`, { agent_id: reader.agentId, role: "reader" }),
    await api.create(owner, `/v1/calendars/${launch.id}/grants`, { agent_id: reader.agentId, role: "writer" }),
  ];
  recordPath.push(`${secret.id}/grants/${grants[0]}`, `${launch.id}/grants/${grants[1]}`);
  const requests = [
    await api.create(stranger, `/v1/calendars/${launch.id}/access-requests`, {
      role: "writer",
      message: "May I help?",
    }),
    await api.create(stranger, `/v1/calendars/${design.id}/access-requests`, {}),
  ];
  await api.create(owner, `/v1/calendars/${design.id}/access-requests/${requests[1]}`, { resolution: "deny" });

  // An earlier slug, so pages answer redirects for it.
  const oldSlug = launch.slug;
  const renamed = await request(t.app)
    .patch(`/v1/calendars/${launch.id}`)
    .set(owner.auth)
    .send({ slug: `launch-${n}-${Date.now().toString(36)}` });
  if (renamed.status !== 200) throw new Error(`seeding: renaming the slug answered ${renamed.status} ${renamed.text}`);

  // Credentials: one without grants:manage the fuzzer uses, spares it may delete, and a revoked one.
  const noGrants = await api.credential(owner, "no grants");
  const spares = [await api.credential(owner, "spare one"), await api.credential(stranger, "spare two")];
  const revoked = await api.credential(owner, "revoked");
  const revokedRes = await request(t.app).delete(`/v1/agent-credentials/${revoked.id}`).set(owner.auth);
  if (revokedRes.status !== 200) throw new Error(`seeding: revoking answered ${revokedRes.status} ${revokedRes.text}`);

  return {
    pools: {
      calendar: [
        launch.id,
        secret.id,
        design.id,
        owner.calendarId,
        strangers.id,
        reader.calendarId,
        heavy.hostId,
        heavy.layerCalendarId,
      ],
      event: events,
      view: views.map((v) => v.id),
      layer: layers,
      grant: grants,
      request: requests,
      credential: [...spares.map((s) => s.id), revoked.id, noGrants.id],
      agent: [owner.agentId, reader.agentId, stranger.agentId],
      calendarSlug: [
        renamed.body.slug,
        oldSlug,
        secret.slug,
        design.slug,
        owner.calendarSlug,
        strangers.slug,
        heavy.hostSlug,
      ],
      viewSlug: [...views.map((v) => v.slug), heavy.viewSlug],
      recordPath,
    },
    tokens: {
      owner: owner.token,
      ownerNoGrantsScope: noGrants.token,
      reader: reader.token,
      stranger: stranger.token,
      revoked: revoked.token,
    },
  };
}

/** Seeding calls that fail loudly: a world that is not what it claims would make the fuzz run meaningless. */
class Seeder {
  constructor(private readonly t: Pick<TestApp, "app">) {}

  async createFull(agent: { auth: Auth }, path: string, body: Body): Promise<Record<string, string> & { id: string }> {
    const res = await post(this.t, path, agent.auth).send(body);
    if (res.status !== 200) throw new Error(`seeding: POST ${path} answered ${res.status} ${res.text}`);
    return res.body;
  }

  async create(agent: { auth: Auth }, path: string, body: Body): Promise<string> {
    return (await this.createFull(agent, path, body)).id;
  }

  async calendar(agent: { auth: Auth }, body: Body): Promise<{ id: string; slug: string }> {
    const created = await this.createFull(agent, "/v1/calendars", body);
    return { id: created.id, slug: created.slug };
  }

  async credential(agent: { auth: Auth }, label: string): Promise<{ id: string; token: string }> {
    const res = await post(this.t, "/v1/agent-credentials", agent.auth).send({ label });
    if (res.status !== 200) throw new Error(`seeding: POST /v1/agent-credentials answered ${res.status} ${res.text}`);
    return { id: res.body.credential.id, token: res.body.token };
  }
}
