/**
 * Rules of the stylesheet (style.ts) for the Subscribe control, the embed snippet in the footer
 * and the embeddable variant's one-line header. One rule a line; a backslash continues a rule.
 */
export const SUBSCRIBE_RULES = `
/* Subscribe: a disclosure that opens in the flow of the masthead, so nothing is covered. */
.facts li:has(>.subscribe[open]){flex-basis:100%}
.subscribe summary{display:inline-block;cursor:pointer;list-style:none;padding:.2rem .8rem;border:1px solid var(--accent);\
border-radius:999px;color:var(--accent);background:var(--surface);font-weight:600}
.subscribe summary::-webkit-details-marker{display:none}
.subscribe summary::after{content:" ▾"/""}
.subscribe[open] summary::after{content:" ▴"/""}
.subscribe-menu{max-width:26rem;margin-top:.5rem;padding:.75rem 1rem;background:var(--surface);color:var(--text);\
border:1px solid var(--line);border-radius:var(--radius)}
.subscribe-menu p{margin:0 0 .5rem}
.subscribe-menu ul{display:grid;gap:.4rem;list-style:none;margin:0 0 .75rem;padding:0}
.subscribe-menu label{display:block;margin-bottom:.25rem}
.feed-address,.embed-snippet{box-sizing:border-box;width:100%;font:inherit;font-size:.8rem;padding:.3rem .45rem;\
border:1px solid var(--line);border-radius:6px;background:var(--sunken);color:var(--text)}
.subscribe-menu .hint{margin:.4rem 0 0;color:var(--muted);font-size:.8rem}
.embed-code{margin-top:.75rem;max-width:40rem}
.embed-code summary{cursor:pointer}
.embed-code label{display:block;margin:.5rem 0 .25rem}
.embed-snippet{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
/* The embeddable variant: the name and a link to the full page on one line. */
.embed-head{padding:.75rem 0 0}
.embed-title{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem .75rem;margin:0}
.embed-title h1{margin:0;font-size:1.15rem}
.embed-title .zone{color:var(--muted);font-size:.875rem}
.embed .period{margin:.5rem 0 .75rem}
`;
