/**
 * Rules of the stylesheet (style.ts) for occurrences' links, moved and cancelled slots, crowded
 * week days and the event page. One rule a line; a backslash continues a rule on the next.
 */
export const OCCURRENCE_RULES = `
/* A linked name makes its whole chip the link's target. */
.ev{position:relative}
.ev a.name-link{color:inherit;text-decoration:none}
.ev a.name-link::after{content:"";position:absolute;inset:0}
.ev a.name-link:hover,.ev a.name-link:focus-visible{text-decoration:underline}
.ev .change{position:relative;z-index:1;margin-left:.35em;font-weight:600}
.ev.vacated{background:var(--surface);border-left-style:dashed;color:var(--muted)}
.ev.vacated s{text-decoration-thickness:1px}
.moved-from{display:block;font-size:.75rem;color:var(--muted);font-style:italic}
.meta .moved-from{display:inline;font-size:inherit}
@media (min-width:48.01rem){.timed .ev.crowded{display:none}}
.crowded-note{font-size:.75rem;font-weight:600;padding:0 .2rem}

/* The event page */
.event-page{max-width:46rem;padding:2rem 0}
.event-page h1{margin-top:.2rem}
.event-page h1 s{text-decoration-thickness:2px}
.event-facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.4rem 1rem;margin:1rem 0}
.event-facts dt{color:var(--muted);font-weight:600}
.event-facts dd{margin:0;overflow-wrap:anywhere}
.occurrence-status{display:inline-block;padding:.1rem .6rem;border-radius:999px;font-weight:600;border:1px solid var(--line);\
background:var(--sunken)}
.event-notes{margin:1.25rem 0;overflow-wrap:anywhere}
.add-to ul{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:.5rem 0 0;padding:0}
.add-to a{display:inline-block;padding:.35rem .8rem;border:1px solid var(--line);border-radius:6px;\
background:var(--surface);color:var(--text);text-decoration:none}
.add-to a:hover{border-color:var(--accent)}
.add-to h2,.event-notes h2{font-size:1.05rem;margin:1.25rem 0 .3rem}
@media (max-width:48rem){
.crowded-note{display:none}
.event-facts{grid-template-columns:1fr;gap:0}
.event-facts dd{margin-bottom:.5rem}
}
`;
