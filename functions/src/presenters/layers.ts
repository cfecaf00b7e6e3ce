import type { FeedRecord } from "../domain/feeds/records.js";
import type { CalendarRecord, LayerRecord } from "../domain/records.js";
import type { PresentedLayer } from "./schemas/layers.js";

/**
 * A layer names the attached calendar (never the host): `calendar_*` describe what is shown. A
 * feed layer's calendar has no page of its own (no slug); it says where its feed stands
 * instead. Its URL may carry a secret (many services put a token in it): only the host's owners
 * read it, anyone else who reads the layers gets null.
 */
export const presentLayer = (
  layer: LayerRecord,
  calendar: CalendarRecord,
  feed: FeedRecord | null,
  viewerOwnsHost: boolean,
): PresentedLayer => ({
  id: layer.id,
  key: layer.key,
  calendar_id: calendar.id,
  calendar_name: calendar.name,
  calendar_slug: feed ? null : calendar.slug,
  created_at: layer.created_at,
  ...(feed
    ? {
        feed_url: viewerOwnsHost ? feed.url : null,
        refresh_minutes: feed.refresh_minutes,
        last_fetched_at: feed.last_fetched_at,
        last_error: feed.last_error,
        event_count: feed.event_count,
      }
    : {}),
});
