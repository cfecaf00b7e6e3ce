import type { CalendarRecord, LayerRecord } from "../domain/records.js";
import type { PresentedLayer } from "./schemas/layers.js";

/** A layer names the attached calendar (never the host): `calendar_*` describe what is shown. */
export const presentLayer = (layer: LayerRecord, calendar: CalendarRecord): PresentedLayer => ({
  id: layer.id,
  key: layer.key,
  calendar_id: calendar.id,
  calendar_name: calendar.name,
  calendar_slug: calendar.slug,
  created_at: layer.created_at,
});
