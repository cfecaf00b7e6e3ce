/**
 * Rules of the claim and account pages, appended to the calendar pages' stylesheet (its
 * colours, type and spacing, light and dark): panels, buttons, forms and the token box.
 */
// One rule a line; a backslash at a line's end continues the rule (no line break is served).
export const HUMANS_RULES = `
:root{--danger:#b42318}
@media (prefers-color-scheme:dark){:root{--danger:#ff8a80}}
.human{max-width:48rem;padding-bottom:2rem}
.lede{max-width:60ch;color:var(--muted);margin:.25rem 0 0}
.panel{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:1rem 1.25rem;\
margin:1.25rem 0}
.panel>h2{margin:0 0 .5rem;font-size:1.15rem}
.panel>:last-child{margin-bottom:0}
.button{display:inline-block;padding:.5rem 1rem;border:1px solid var(--accent);border-radius:6px;\
background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.button:hover{filter:brightness(1.08)}
.button.quiet{background:var(--surface);color:var(--text);border-color:var(--line);font-weight:500}
.button.quiet:hover{border-color:var(--accent)}
.button.danger{background:var(--surface);color:var(--danger);border-color:var(--danger)}
.button:disabled{opacity:.6;cursor:wait}
.inline-form{display:inline}
.confirm-revoke{margin:.75rem 0 0}
.apps .confirm-revoke{display:inline-block;margin:0 0 0 .5rem;vertical-align:top}
.confirm-revoke>summary{list-style:none;cursor:pointer}
.confirm-revoke>summary::-webkit-details-marker{display:none}
.confirm-revoke[open]>summary{background:var(--sunken)}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.6rem;margin:.75rem 0 0}
.field{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.5rem;margin:.75rem 0 0}
.field label{flex-basis:100%;font-size:.9rem;font-weight:600}
.field input{flex:1 1 14rem;min-width:0;font:inherit;padding:.45rem .6rem;border:1px solid var(--muted);\
border-radius:6px;background:var(--surface);color:var(--text)}
.or{margin:.9rem 0 0;color:var(--muted);font-size:.875rem}
.signin-status{margin:.75rem 0 0;min-height:1.5em}
.signin-status:empty{display:none}
.emulator-note{font-size:.875rem;color:var(--muted);border-left:4px solid var(--accent);padding-left:.6rem}
.emulator-link{margin:.5rem 0 0}
.notice{padding:.6rem .9rem;border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:6px;\
background:var(--accent-soft);margin:1rem 0}
.agents{list-style:none;margin:0;padding:0;display:grid;gap:.9rem}
.agent{background:var(--surface);border:1px solid var(--line);border-radius:var(--radius);padding:1rem 1.25rem}
.agent h3{margin:0;font-size:1.1rem;overflow-wrap:anywhere}
.agent .meta code{font-size:.8rem}
.calendars{list-style:none;margin:.6rem 0 0;padding:0;display:grid;gap:.3rem}
.calendars li{display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline}
.calendars .role{color:var(--muted);font-size:.85rem}
.agent h4{margin:.9rem 0 .3rem;font-size:.95rem}
.webhooks{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}
.webhook{border-top:1px solid var(--line);padding-top:.5rem}
.webhook p{margin:.2rem 0}
.webhook-url code{font-size:.85rem;overflow-wrap:anywhere}
.webhook .actions{margin-top:.4rem}
.state{display:inline-block;margin-left:.5em;padding:0 .5em;border-radius:999px;border:1px solid var(--line);\
color:var(--muted);font-size:.75rem;font-weight:600;vertical-align:2px}
.token{display:block;margin:.5rem 0;padding:.75rem;border:1px dashed var(--accent);border-radius:6px;\
background:var(--sunken);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.95rem;\
overflow-wrap:anywhere;user-select:all}
.tell{background:var(--sunken);border-radius:6px;padding:.75rem;overflow:auto;font-size:.85rem;white-space:pre-wrap;\
overflow-wrap:anywhere}
.who{color:var(--muted);font-size:.9rem}
.choices{border:1px solid var(--line);border-radius:6px;margin:.9rem 0 0;padding:.5rem .9rem .75rem;min-width:0}
.choices legend{font-weight:600;padding:0 .3rem}
.choice{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin:.35rem 0}
.choice label{flex:1 1 12rem;overflow-wrap:anywhere}
.choice input[type=text]{flex:1 1 12rem;min-width:0;font:inherit;padding:.3rem .5rem;border:1px solid var(--muted);\
border-radius:6px;background:var(--surface);color:var(--text)}
.apps{list-style:none;margin:0;padding:0;display:grid;gap:.4rem}
.apps li{display:flex;flex-wrap:wrap;gap:.2rem .6rem;align-items:baseline}
`;
