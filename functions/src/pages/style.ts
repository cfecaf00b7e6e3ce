/**
 * The pages' one stylesheet, built once at load. Served by the pages app under both /c/ and
 * /v/ (so Hosting's rewrites reach it and a view page never links to /c/), with a content
 * hash in its name so browsers and the CDN may cache it for a year. Positions on the week
 * and timeline grids are classes generated here: the CSP allows no inline styles.
 */
import { createHash } from "node:crypto";
import { MAX_LANES, SLOTS_PER_HOUR } from "./lenses/week.js";
import { DARK_PALETTE, LIGHT_PALETTE, PALETTE_SIZE } from "./colours.js";
import { OCCURRENCE_RULES } from "./style-occurrences.js";
import { SUBSCRIBE_RULES } from "./style-subscribe.js";
import { SPAN_RULES } from "./style-spans.js";
import { PHONE_RULES } from "./style-phone.js";
import { TIMELINE_RULES } from "./style-timeline.js";

const MAX_SLOTS = 24 * SLOTS_PER_HOUR;
const MAX_WEEKS = 16;

const range = (from: number, to: number, step = 1): number[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

function generated(): string {
  const rules: string[] = [];
  for (let i = 0; i < PALETTE_SIZE; i++) rules.push(`.cat-${i}{--cat:var(--cat-${i})}`);
  for (const n of range(SLOTS_PER_HOUR, MAX_SLOTS, SLOTS_PER_HOUR))
    rules.push(`.slots-${n}{grid-template-rows:auto auto auto repeat(${n},minmax(var(--slot),auto))}`);
  for (const n of range(1, MAX_SLOTS)) rules.push(`.at-${n}{grid-row-start:${n}}.len-${n}{grid-row-end:span ${n}}`);
  // Side by side, a lane is at least --lane-min and its longest word wide (lanes-1 is alone).
  for (const n of range(1, MAX_LANES)) {
    const min = n === 1 ? "0" : "min-content";
    rules.push(`.lanes-${n}{grid-template-columns:repeat(${n},minmax(${min},1fr))}.lane-${n}{grid-column:${n}}`);
  }
  for (const n of range(1, MAX_WEEKS)) {
    rules.push(`.weeks-${n}{grid-template-columns:var(--lane-label) repeat(${n},minmax(4.75rem,1fr))}`);
    rules.push(`.c-${n}{grid-column-start:${n}}.w-${n}{grid-column-end:span ${n}}`);
  }
  return rules.join("\n");
}

const palette = (colours: string[]) => colours.map((c, i) => `--cat-${i}:${c};`).join("");

// One rule a line. A backslash at the end of a line continues the rule on the next: a template
// literal's line continuation, so the served text has no line break there.
const BASE = `
:root{color-scheme:light dark;
--bg:#f7f6f2;--surface:#ffffff;--sunken:#f0eee8;--text:#1d2125;--muted:#515a64;--line:#e0ddd5;
--accent:#1f6b57;--accent-text:#ffffff;--accent-soft:#dcefe8;--today:#fff4d6;--neutral:#7a8590;
${palette(LIGHT_PALETTE)}
--slot:0.8rem;--lane-min:5rem;--lane-label:9rem;--radius:8px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5}
@media (prefers-color-scheme:dark){:root{
--bg:#131517;--surface:#1b1e21;--sunken:#16181b;--text:#e7e6e2;--muted:#a9b0b8;--line:#30343a;
--accent:#7fcdb2;--accent-text:#10201b;--accent-soft:#1d3a31;--today:#2e2a1a;--neutral:#8b949e;
${palette(DARK_PALETTE)}}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font-size:1rem}
a{color:var(--accent)}
a:focus-visible,summary:focus-visible,button:focus-visible,input:focus-visible,[tabindex]:focus-visible{\
outline:2px solid var(--accent);outline-offset:2px;border-radius:4px}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;\
clip:rect(0 0 0 0);white-space:nowrap;border:0}
.wrap{max-width:80rem;margin:0 auto;padding:0 clamp(0.75rem,3vw,2rem)}
.skip{position:absolute;left:-999px;top:0}\
.skip:focus{left:1rem;top:1rem;background:var(--surface);padding:.5rem 1rem;z-index:10}

/* Masthead */
.masthead{padding:2rem 0 1rem}
.eyebrow{margin:0;color:var(--muted);font-size:.8rem;letter-spacing:.08em;text-transform:uppercase}
h1{margin:.2rem 0 .4rem;font-size:clamp(1.6rem,4vw,2.4rem);line-height:1.15;letter-spacing:-.01em;\
overflow-wrap:anywhere}
.purpose{max-width:70ch;color:var(--text);overflow-wrap:anywhere}
.purpose>:first-child{margin-top:0}.purpose>:last-child{margin-bottom:0}
.purpose h3,.purpose h4,.purpose h5,.purpose h6{font-size:1.05rem;margin:1rem 0 .3rem}
.purpose img,.notes img{max-width:100%;height:auto}
.purpose pre,.notes pre{overflow:auto;background:var(--sunken);padding:.5rem;border-radius:6px}
.facts{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.9rem 0 0;padding:0;list-style:none;color:var(--muted);\
font-size:.875rem}

/* Lens tabs and period bar */
.lenses ul{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;margin:0;padding:0}
.lenses a{display:inline-block;padding:.35rem .9rem;border-radius:999px;border:1px solid var(--line);\
background:var(--surface);color:var(--text);text-decoration:none;font-size:.9rem}
.lenses a:hover{border-color:var(--accent)}
.lenses a[aria-current="page"]{background:var(--accent);border-color:var(--accent);color:var(--accent-text);\
font-weight:600}
.period{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.75rem;margin:1.25rem 0 1rem}
.period h2{margin:0;font-size:1.35rem}
.period-nav{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
.period-nav a,.jump button{display:inline-block;padding:.3rem .75rem;border:1px solid var(--line);border-radius:6px;\
background:var(--surface);color:var(--text);text-decoration:none;font:inherit;font-size:.875rem;cursor:pointer}
.period-nav a:hover,.jump button:hover{border-color:var(--accent)}
.jump{display:flex;align-items:center;gap:.35rem;font-size:.875rem}
.jump input{font:inherit;font-size:.875rem;padding:.2rem .4rem;border:1px solid var(--line);border-radius:6px;\
background:var(--surface);color:var(--text)}
main{padding-bottom:2rem}
footer{color:var(--muted);font-size:.8rem;padding:1.5rem 0 2.5rem;border-top:1px solid var(--line)}
.empty-state{color:var(--muted);font-style:italic}
.budget-note{margin:.5rem 0 1rem;padding:.5rem .75rem;border:1px solid var(--line);border-left:4px solid var(--accent);\
border-radius:6px;background:var(--sunken);max-width:70ch}

/* Event chips */
.ev{--cat:var(--neutral);border-left:3px solid var(--cat);background:color-mix(in srgb,var(--cat) 12%,var(--surface));\
border-radius:4px;padding:.1rem .4rem;font-size:.8125rem;line-height:1.35;overflow-wrap:anywhere}
.ev .when{color:var(--muted);font-variant-numeric:tabular-nums;margin-right:.35em}
.ev .name{font-weight:500}
.art{margin-right:.3em;display:inline-block;max-width:8em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;\
vertical-align:bottom}
img.art{width:1.15em;height:1.15em;object-fit:cover;border-radius:3px;vertical-align:-.2em}
.layer{display:inline-block;margin-left:.4em;padding:0 .45em;border:1px solid var(--line);border-radius:999px;\
color:var(--muted);background:var(--surface);font-size:.7rem;font-weight:500;line-height:1.5;white-space:nowrap;\
max-width:calc(100% - .4em);overflow:hidden;text-overflow:ellipsis;vertical-align:text-bottom}
.next-day{margin-left:.1em;font-size:.75em;vertical-align:.35em;text-decoration:none;cursor:help}
.category::before{content:"";display:inline-block;width:.55em;height:.55em;border-radius:50%;background:var(--cat);\
margin-right:.35em}
.legend{margin:1rem 0 0;font-size:.85rem}
.legend h2{margin:0;font-size:.85rem;font-weight:600;color:var(--muted)}
.legend ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.25rem 0 0;padding:0;list-style:none;color:var(--text)}
.zone-form{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin:.6rem 0 0;font-size:.875rem}
.zone-form input{padding:.3rem .5rem;border:1px solid var(--line);border-radius:6px;background:var(--surface);\
color:var(--text);font:inherit;min-width:12rem}
.zone-form button{padding:.3rem .7rem;border:1px solid var(--line);border-radius:6px;background:var(--surface);\
color:var(--text);font:inherit;cursor:pointer}
.badge{display:inline-block;margin-left:.5em;padding:0 .5em;border-radius:999px;background:var(--accent);\
color:var(--accent-text);font-size:.75rem;font-weight:600;vertical-align:2px}

/* Month */
.month{width:100%;table-layout:fixed;border-collapse:collapse;background:var(--surface);border:1px solid var(--line)}
.month th{padding:.45rem;font-size:.8rem;font-weight:600;color:var(--muted);text-align:left;\
border-bottom:1px solid var(--line)}
.month abbr{text-decoration:none}
.month td{vertical-align:top;height:7.25rem;padding:.3rem;border:1px solid var(--line)}
.month td.other-month{background:var(--sunken)}
.month td.other-month .dnum{color:var(--muted)}
.month td.today{background:var(--today)}
.month .dow{display:none}
.month .day-link,.month td>time{display:inline-block;color:var(--text);text-decoration:none;font-size:.85rem;\
font-variant-numeric:tabular-nums;padding:0 .3rem;border-radius:999px;min-width:1.7rem;text-align:center}
.month .day-link:hover{background:var(--accent-soft)}
.month td.today .dnum{font-weight:700}
.month td.today .day-link,.month td.today>time{background:var(--accent);color:var(--accent-text)}
.month td.today .day-link .dnum{color:var(--accent-text)}
.events{list-style:none;margin:.25rem 0 0;padding:0;display:grid;gap:.2rem}
.month .ev{overflow:hidden}
.more summary{cursor:pointer;font-size:.75rem;color:var(--muted);padding:.15rem .2rem;list-style:none}
.more summary::-webkit-details-marker{display:none}
.more[open] summary{margin-bottom:.1rem}

/* Week: the days, the hours and the quarter-hour rows are one grid (slots-N), so that a row
   grown to fit a wrapped name grows in every day. A crowded day's column widens to its lanes. */
.week{display:grid;grid-template-columns:3.25rem repeat(7,minmax(min-content,1fr));grid-template-rows:auto auto auto;\
background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);overflow-x:auto}
.week .hours{grid-column:1/-1;grid-row:4/-1;display:grid;grid-template-rows:subgrid;list-style:none;margin:0;padding:0}
.week .hours li{grid-column:1;grid-row-end:span 4;border-top:1px solid var(--line);font-size:.7rem;color:var(--muted);\
font-variant-numeric:tabular-nums}
.week .hours li span{display:block;width:3.25rem;text-align:right;padding-right:.4rem;transform:translateY(-.55em)}
.week .hours li:first-child{border-top:0}
.week .hours li:first-child span{transform:none}
.wday{grid-row:1/-1;display:grid;grid-template-rows:subgrid;border-left:1px solid var(--line);min-width:0}
.wday-head{grid-row:1;margin:0;padding:.5rem .4rem;font-size:.85rem;font-weight:600;text-align:center;\
border-bottom:1px solid var(--line)}
.wday-head .dnum{display:inline-block;min-width:1.8rem;border-radius:999px;text-align:center}
.wday.today .wday-head .dnum{background:var(--accent);color:var(--accent-text)}
.wday.today{background:color-mix(in srgb,var(--today) 45%,transparent)}
.untimed{grid-row:3;list-style:none;margin:0;padding:.25rem;display:grid;gap:.2rem;align-content:start;\
border-bottom:1px solid var(--line);min-height:1.75rem}
.timed{grid-row:4/-1;display:grid;grid-template-rows:subgrid;list-style:none;margin:0;padding:0 .2rem;column-gap:.15rem}
.timed .ev{overflow:hidden;min-height:0;margin:1px 0;padding:.1rem .3rem;line-height:1.25;overflow-wrap:break-word}
.timed .ev .when{display:block;margin:0;font-size:.72rem}
/* A short event's start goes before its name, which wraps after it (an inline-block may break after). */
.timed .ev.short .when{display:inline-block;margin-right:.3em}
.timed .ev.short .until{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.timed .ev.continues{margin-bottom:0;border-bottom-left-radius:0;border-bottom-right-radius:0}
.timed .ev.continued{margin-top:0;border-top:1px dashed var(--cat);border-top-left-radius:0;border-top-right-radius:0}
.timed:not(.lanes-1) .ev{min-width:var(--lane-min)}
.lane-all{grid-column:1/-1}
.wday .none{display:none}

/* Schedule */
.agenda-day h3{font-size:1rem;margin:1.5rem 0 .5rem}
.agenda-day:first-child h3{margin-top:0}
.agenda-items,.someday-items{list-style:none;margin:0;padding:0}
.agenda-items{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);overflow:hidden}
.agenda-items .ev{display:grid;grid-template-columns:8rem minmax(0,1fr);gap:1rem;padding:.7rem 1rem;border-radius:0;\
border-left-width:4px;background:var(--surface);font-size:.95rem;border-bottom:1px solid var(--line)}
.agenda-items .ev:last-child{border-bottom:0}
.agenda-time .when{color:var(--muted);margin:0}
.agenda-time .since{display:block;font-size:.8rem}
.agenda-items .ev.continued{border-left-style:dashed}
.title{margin:0}
.meta{margin:.15rem 0 0;color:var(--muted);font-size:.85rem;display:flex;flex-wrap:wrap;gap:.2rem 1rem}
.notes{margin-top:.35rem;color:var(--text);font-size:.9rem}
.notes>:first-child{margin-top:0}.notes>:last-child{margin-bottom:0}
details.notes summary{cursor:pointer;color:var(--muted)}
.someday{margin-top:2.25rem}
.someday h2{font-size:1.2rem;margin:0 0 .75rem}
.someday-items{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:.75rem}
.someday-items .ev{padding:.75rem 1rem;border-left-width:4px;font-size:.95rem;border-radius:var(--radius)}

/* Timeline */
.timeline{display:grid;grid-template-columns:var(--lane-label) repeat(13,minmax(4.75rem,1fr));overflow-x:auto;\
background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding-bottom:.5rem}
.tl-scale{grid-column:2/-1;display:grid;grid-template-columns:subgrid;list-style:none;margin:0;padding:.5rem 0;\
border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--surface)}
.tl-scale li{font-size:.75rem;color:var(--muted);padding-left:.3rem;border-left:1px solid var(--line);\
white-space:nowrap;font-variant-numeric:tabular-nums}
.tl-scale li.now{color:var(--accent-text);background:var(--accent);border-radius:4px;font-weight:600}
.lane{grid-column:1/-1;display:grid;grid-template-columns:subgrid;align-items:start;\
border-bottom:1px solid var(--line);padding:.5rem 0}
.lane:last-child{border-bottom:0}
.lane-name{grid-column:1;margin:0;padding:.15rem .75rem;font-size:.85rem;font-weight:600;overflow-wrap:anywhere}
.layer-note{display:block;font-weight:400;font-size:.72rem;color:var(--muted)}
.lane-items{grid-column:2/-1;display:grid;grid-template-columns:subgrid;grid-auto-flow:row dense;gap:.3rem 0;\
list-style:none;margin:0;padding:0}
.lane-items .ev{margin-right:.3rem}
.lane-items .ev .when{display:block;margin:0;font-size:.72rem}
.lane-items .repeats{display:block;font-size:.72rem;color:var(--muted)}
.lane-items .is-recurring{\
background:repeating-linear-gradient(135deg,color-mix(in srgb,var(--cat) 16%,var(--surface)) 0 8px,color-mix(in srgb,\
var(--cat) 9%,var(--surface)) 8px 16px)}
.someday-lane .lane-items{display:flex;flex-wrap:wrap;gap:.4rem;padding-right:.5rem}
.someday-lane .lane-items .ev{border:1px dashed var(--line);border-left:3px solid var(--cat);margin:0}
.someday-lane .empty-state,.lane-empty{grid-column:2/-1;margin:.25rem 0}

/* Error pages */
.error-page{max-width:40rem;padding:4rem 0}
.error-page .status{font-size:.9rem;color:var(--muted);margin:0}

/* Phones and narrow windows: grids become lists. */
@media (max-width:48rem){
.timed .ev .when{margin-right:.4em}
.week{display:block;border:0;background:none;overflow:visible}
.week .hours{display:none}
.wday{display:block;border:1px solid var(--line);border-radius:var(--radius);margin-bottom:.6rem;\
background:var(--surface);padding-bottom:.3rem}
.wday-head{text-align:left;border-bottom:0;padding:.5rem .75rem .25rem}
.wday .untimed{border:0;min-height:0;padding:.15rem .5rem}
.timed{display:block;background:none;padding:0 .5rem}
.timed .ev{margin:.2rem 0}
.timed .ev .when{display:inline}
.timed .ev.short .until{position:static;width:auto;height:auto;overflow:visible;clip:auto}
.wday.empty .untimed,.wday.empty .timed{display:none}
.wday .none{display:block;margin:0;padding:0 .75rem .3rem;color:var(--muted);font-size:.85rem}
.timeline{display:block;overflow:visible}
.tl-scale{display:none}
.lane{display:block;padding:.6rem .6rem}
.lane-name{padding:0 0 .35rem}
.lane-items{display:block}
.lane-items .ev{margin:.3rem 0}
.someday-lane .lane-items{display:flex}
.agenda-items .ev{grid-template-columns:1fr;gap:.15rem}
}
@media (max-width:40rem){
.month,.month tbody,.month tr{display:block;border:0;background:none}
.month thead{display:none}
.month td{display:grid;grid-template-columns:4.5rem minmax(0,1fr);gap:.5rem;height:auto;border:0;\
border-bottom:1px solid var(--line);padding:.6rem .25rem;background:none}
.month td.empty,.month td.other-month{display:none}
.month td.today.empty{display:grid}
.month .dow{display:inline;font-size:.8rem}
.month .day-link,.month td>time{text-align:left;align-self:start}
.month .events{margin:0}
.month .ev{white-space:normal;font-size:.9rem}
.month td.today{background:var(--today)}
.period{flex-direction:column;align-items:flex-start}
}
`;

const RULES = `${OCCURRENCE_RULES}${SUBSCRIBE_RULES}${SPAN_RULES}${TIMELINE_RULES}${PHONE_RULES}`;
export const STYLESHEET = `${BASE}${RULES}\n/* Grid positions */\n${generated()}\n`;
export const STYLESHEET_NAME = `style.${createHash("sha256").update(STYLESHEET).digest("hex").slice(0, 12)}.css`;
