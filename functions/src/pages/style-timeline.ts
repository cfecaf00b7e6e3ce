/**
 * Rules of the stylesheet (style.ts) for the timeline to scale (lenses/timeline.ts): one grid
 * column per day, `d-N` the day an item starts on, `l-N` how many days it takes. An item's bar
 * is as long as its days; its label is under the bar. Narrow screens list the labels.
 */
const MAX_DAYS = 16 * 7;

function dayColumns(): string {
  const rules: string[] = [];
  for (let n = 1; n <= MAX_DAYS; n++) {
    rules.push(`.days-${n}{grid-template-columns:var(--lane-label) repeat(${n},minmax(.55rem,1fr))}`);
    rules.push(`.d-${n}{grid-column-start:${n}}.l-${n}{grid-column-end:span ${n}}`);
  }
  return rules.join("\n");
}

export const TIMELINE_RULES = `
.lane-items .tl-item{display:grid;grid-template-columns:subgrid;align-content:start;background:none;border:0;\
border-radius:0;padding:0;margin:0}
.tl-bar{grid-row:1;grid-column-start:1;height:.6rem;margin:.1rem 0 .15rem;border-radius:3px;background:var(--cat);min-width:3px}
.lane-items .tl-item.is-recurring{background:none}
.tl-item.is-recurring .tl-bar{background:repeating-linear-gradient(90deg,var(--cat) 0 6px,\
color-mix(in srgb,var(--cat) 30%,var(--surface)) 6px 10px)}
.tl-label{grid-row:2;grid-column:1/-1;min-width:0;padding:0 .4rem 0 .1rem}
.tl-scale li{overflow:hidden}
${dayColumns()}
@media (max-width:48rem){
.lane-items .tl-item{display:block;border-left:3px solid var(--cat);padding:.1rem .4rem;margin:.3rem 0}
.tl-bar{display:none}
}
`;
