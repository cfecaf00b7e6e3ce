import type { ShareViewRecord } from "../domain/records.js";
import type { PresentedView } from "./schemas/views.js";
import { subscribeLinks } from "./subscribe.js";

export const viewUrl = (baseUrl: string, slug: string): string => `${baseUrl}/v/${slug}`;

/**
 * Every filter and display key is spelled out, defaults included (docs/api.md#share-views). A
 * revoked view's feed answers no one, so it offers no links to subscribe.
 */
export const presentView = (view: ShareViewRecord, baseUrl: string): PresentedView => ({
  id: view.id,
  calendar_id: view.calendar_id,
  name: view.name,
  slug: view.slug,
  url: viewUrl(baseUrl, view.slug),
  feed_url: `${viewUrl(baseUrl, view.slug)}.ics`,
  subscribe: view.revoked_at === null ? subscribeLinks(`${viewUrl(baseUrl, view.slug)}.ics`, view.name) : null,
  filter: {
    layers: view.filter.layers,
    categories: view.filter.categories,
    from: view.filter.from,
    to: view.filter.to,
    include_someday: view.filter.include_someday,
    include_recurring: view.filter.include_recurring,
  },
  display: { default_view: view.display.default_view, views: view.display.views },
  created_at: view.created_at,
  updated_at: view.updated_at,
  revoked_at: view.revoked_at,
});
