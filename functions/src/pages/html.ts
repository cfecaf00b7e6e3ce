/**
 * The one escaping helper of the pages. Every string interpolated into `html\`...\`` is
 * escaped unless it is already `SafeHtml` (built by this template, or by the Markdown
 * renderer). Nothing else in pages/ builds markup from user text.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPE_ALL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  // Most strings need nothing: skip the replace (this runs for every name on a month page).
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPE_ALL, (c) => ENTITIES[c]) : text;
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (typeof value === "string") return escapeHtml(value);
  if (typeof value === "number") return String(value);
  let out = "";
  for (const v of value) out += render(v);
  return out;
}

/** Tagged template: literal parts are trusted markup, interpolations are escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks markup built elsewhere as trusted; only for constants and the Markdown renderer. */
export const trusted = (markup: string): SafeHtml => new SafeHtml(markup);
