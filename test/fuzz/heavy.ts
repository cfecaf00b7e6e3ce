/**
 * A public host calendar with 20 layers full of daily series, the shape issue 9 froze the
 * server with (a year of occurrences expanded in full). Owned by an agent whose token the
 * fuzzer never holds, so it stays as seeded while every world reads it: occurrences,
 * event lists, pages and feeds of it must stay within the 2 s bound.
 */
import type { TestApp } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent } from "../helpers/factories.js";

export interface Heavy {
  hostId: string;
  hostSlug: string;
  layerCalendarId: string;
  viewSlug: string;
}

const LAYERS = 20;

export async function seedHeavy(t: Pick<TestApp, "app">, seriesPerLayer: number): Promise<Heavy> {
  const owner = await mintAgent(t, "Heavy Owner");
  const create = async (path: string, body: Record<string, unknown>) => {
    const res = await post(t, path, owner.auth).send(body);
    if (res.status !== 200) throw new Error(`seeding the heavy host: POST ${path} answered ${res.status} ${res.text}`);
    return res.body as { id: string; slug: string };
  };
  const host = await create("/v1/calendars", { name: "Heavy host", visibility: "public", timezone: "Europe/Berlin" });
  const layerIds: string[] = [];
  for (let l = 0; l < LAYERS; l++) {
    const layer = await create("/v1/calendars", { name: `Heavy layer ${l}`, visibility: "public", timezone: "UTC" });
    layerIds.push(layer.id);
    await create(`/v1/calendars/${host.id}/layers`, { calendar_id: layer.id, key: `layer-${l}` });
  }
  // Daily series at every quarter hour, written a few at a time.
  const series = layerIds.flatMap((id) => Array.from({ length: seriesPerLayer }, (_, i) => ({ id, i })));
  for (let at = 0; at < series.length; at += 8) {
    await Promise.all(
      series.slice(at, at + 8).map(({ id, i }) => {
        const minutes = (i * 15) % 1440;
        const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
        return create(`/v1/calendars/${id}/events`, {
          name: `Series ${i}`,
          recur: { type: "daily", starts: "2026-01-01" },
          start_time: time,
        });
      }),
    );
  }
  const view = await create(`/v1/calendars/${host.id}/views`, { name: "Everything heavy" });
  return { hostId: host.id, hostSlug: host.slug, layerCalendarId: layerIds[0], viewSlug: view.slug };
}
