import { z } from "zod";

/** A layer link, naming the attached calendar (presenters/layers.ts). */
export const layerRecord = z.object({
  id: z.string(),
  key: z.string(),
  calendar_id: z.string(),
  calendar_name: z.string(),
  calendar_slug: z.string(),
  created_at: z.string(),
});
export type PresentedLayer = z.input<typeof layerRecord>;
