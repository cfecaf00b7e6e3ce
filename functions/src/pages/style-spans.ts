/**
 * Rules of the stylesheet (style.ts) for bars across days (lenses/spans.ts), and Week's mark where
 * an overnight event goes on. In Month a bar
 * starts in its first day's cell and is as wide as its days: N columns of the fixed table,
 * with the N-1 cell paddings and borders between (.3rem each side, 1px). One rule a line.
 */
const MONTH_PAD = ".6rem + 1px";

const monthWidths = (): string =>
  Array.from({ length: 6 }, (_, i) => i + 2)
    .map((n) => `.month .ev.span-${n}{width:calc(${n * 100}% + ${n - 1} * (${MONTH_PAD}))}`)
    .join("\n");

export const SPAN_RULES = `
.ev.span{position:relative;z-index:1;box-sizing:border-box}
.ev.span .until{margin-left:.35em;margin-right:0}
.ev.span .goes-on{color:var(--muted);font-weight:700;margin:0 .3em 0 0}
.ev.span .until+.goes-on,.ev.span .layer+.goes-on,.ev.span .visually-hidden+.goes-on{float:right;margin:0 0 0 .3em}
.ev.span.continued{border-top-left-radius:0;border-bottom-left-radius:0;border-left-style:dashed}
.ev.span.continues{border-top-right-radius:0;border-bottom-right-radius:0}
/* A bar's name wraps; the slots it crosses hold a hidden copy of it, as wide, to be as high. */
.month .ev.span,.month .span-gap{min-height:1.45rem}
.span-gap{list-style:none;overflow:hidden}
.span-gap>.ev{display:block;visibility:hidden}
/* Week: where an overnight event goes on past the last hour shown. */
.timed .ev .goes-on{display:block;font-size:.72rem;color:var(--muted)}
${monthWidths()}
.week-spans{grid-row:2;grid-column:2/-1;display:grid;grid-template-columns:subgrid;grid-auto-flow:row dense;gap:.2rem 0;\
list-style:none;margin:0;padding:.25rem 0;position:relative;z-index:1}
.week-spans .ev{margin:0 .25rem}
/* The days keep their columns beside the bars, which share their grid rows. */
${Array.from({ length: 7 }, (_, i) => `.week>.wday:nth-of-type(${i + 1}){grid-column:${i + 2}}`).join("\n")}
${Array.from({ length: 7 }, (_, i) => `.week-spans .from-${i + 1}{grid-column-start:${i + 1}}`).join("\n")}
${Array.from({ length: 7 }, (_, i) => `.week-spans .span-${i + 1}{grid-column-end:span ${i + 1}}`).join("\n")}
@media (max-width:48rem){
.week-spans{display:grid;grid-template-columns:1fr;margin-bottom:.6rem;padding:0}
.week-spans .ev{grid-column:1;margin:0}
}
@media (max-width:40rem){
.month .span-gap{display:none}
.month .ev.span{width:auto}
}
`;
