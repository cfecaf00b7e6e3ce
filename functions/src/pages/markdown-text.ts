/**
 * User Markdown as plain text, for what shows no HTML (a feed's DESCRIPTION): read from the
 * same markdown-it parse as the pages (markdown.ts), emphasis and headings dropped, list items
 * on their own lines, and every link kept as its address ("team doc (https://…)").
 */
import type { Token } from "markdown-it";
import { markdownTokens } from "./markdown.js";

export function markdownText(markdown: string): string {
  const out: string[] = [];
  const lists: Array<{ next: number | null }> = [];
  for (const token of markdownTokens(markdown)) {
    switch (token.type) {
      case "inline":
        out.push(inlineText(token.children ?? []));
        break;
      case "bullet_list_open":
        lists.push({ next: null });
        break;
      case "ordered_list_open":
        lists.push({ next: Number(token.attrGet("start") ?? 1) });
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        lists.pop();
        if (lists.length === 0) out.push("\n");
        break;
      case "list_item_open": {
        const list = lists[lists.length - 1];
        const marker = list.next === null ? "- " : `${list.next++}. `;
        out.push(`${"  ".repeat(lists.length - 1)}${marker}`);
        break;
      }
      case "paragraph_close":
        out.push(lists.length > 0 ? "\n" : "\n\n");
        break;
      case "heading_close":
      case "blockquote_close":
      case "table_close":
        out.push("\n");
        break;
      case "heading_open":
        break;
      case "fence":
      case "code_block":
        out.push(token.content, "\n");
        break;
      case "th_close":
      case "td_close":
        out.push("\t");
        break;
      case "tr_close":
        out.push("\n");
        break;
      case "hr":
        out.push("\n");
        break;
    }
  }
  return out
    .join("")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** An inline run's text; a link whose words are not its address is followed by the address. */
function inlineText(children: readonly Token[]): string {
  let text = "";
  const links: Array<{ href: string; from: number; written: boolean }> = [];
  for (const child of children) {
    switch (child.type) {
      case "text":
      case "code_inline":
        text += child.content;
        break;
      case "softbreak":
      case "hardbreak":
        text += "\n";
        break;
      case "image":
        text += child.content;
        break;
      case "link_open":
        // Autolinks and bare addresses (linkify) already read as their address.
        links.push({ href: String(child.attrGet("href") ?? ""), from: text.length, written: child.markup !== "" });
        break;
      case "link_close": {
        const link = links.pop();
        if (!link || link.written) break;
        const words = text.slice(link.from);
        if (words !== link.href && `mailto:${words}` !== link.href) text += ` (${link.href})`;
        break;
      }
    }
  }
  return text;
}
