/**
 * A small tokenizer for the markup our renderers produce (double- or single-quoted or bare
 * attribute values, no raw-text elements): enough to list every start tag with its attributes
 * the way a browser would read them, so tests can look for event handlers and script URLs.
 */
export interface Tag {
  name: string;
  attrs: Array<{ name: string; value: string }>;
}

const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTR = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Decodes character references as a browser does in attribute values (enough for URL checks). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === "#")
      return String.fromCodePoint(
        ref[1].toLowerCase() === "x" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10),
      );
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

export function tagsOf(markup: string): Tag[] {
  const tags: Tag[] = [];
  for (const m of markup.matchAll(TAG)) {
    const attrs = [...m[2].matchAll(ATTR)].map((a) => ({
      name: a[1].toLowerCase(),
      value: decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""),
    }));
    tags.push({ name: m[1].toLowerCase(), attrs });
  }
  return tags;
}

const URL_ATTRS = new Set(["href", "src", "action", "formaction", "srcset", "poster", "xlink:href", "background"]);

/** Everything in `markup` a browser could execute: script elements, handlers, script URLs. */
export function executableMarkup(markup: string): string[] {
  const found: string[] = [];
  if (/<\s*script/i.test(markup)) found.push("a <script> element");
  for (const tag of tagsOf(markup)) {
    if (["script", "iframe", "object", "embed", "base", "svg", "math"].includes(tag.name)) found.push(`<${tag.name}>`);
    if (tag.name === "meta" && tag.attrs.some((a) => a.name === "http-equiv" && a.value.toLowerCase() === "refresh"))
      found.push("a meta refresh");
    for (const { name, value } of tag.attrs) {
      if (name.startsWith("on")) found.push(`<${tag.name} ${name}=…>`);
      // Browsers drop tabs, newlines and leading spaces and C0 controls before reading a scheme.
      // eslint-disable-next-line no-control-regex -- the C0 controls are what it strips
      const url = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
      if (
        URL_ATTRS.has(name) &&
        /^(javascript|vbscript|data):/.test(url) &&
        !/^data:image\/(png|gif|jpeg|webp);/.test(url)
      )
        found.push(`<${tag.name} ${name}="${value}">`);
      if (name === "style") found.push(`<${tag.name} style>`);
    }
  }
  return found;
}
