/**
 * Rules of the stylesheet (style.ts) that keep a phone's first screen for events: the masthead,
 * the lens tabs and the period bar take little height there. The eyebrow stays only where it
 * is a link back (an account's calendar). The purpose shows its first lines, without the link
 * to its Markdown (the wider page keeps it). One rule a line.
 */
export const PHONE_RULES = `
@media (max-width:40rem){
.masthead{padding:.75rem 0 .25rem}
.masthead .eyebrow:not(:has(a)){display:none}
.masthead h1{font-size:1.4rem;margin:0 0 .2rem}
.masthead .purpose{font-size:.875rem;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}
.masthead .facts{margin:.35rem 0 0;font-size:.8rem;align-items:center}
.masthead .facts li:has(>a[href$="purpose.md"]){display:none}
.masthead .zone-form{margin:.35rem 0 0;font-size:.8rem;flex-wrap:nowrap}
.masthead .zone-form input{min-width:0;flex:1 1 auto;padding:.15rem .4rem}
.masthead .zone-form button{padding:.15rem .5rem}
.lenses a{padding:.2rem .65rem;font-size:.875rem}
.period{flex-direction:row;align-items:center;gap:.35rem .5rem;margin:.5rem 0 .5rem}
.period h2{font-size:1.05rem}
.period-nav{gap:.3rem;font-size:.875rem}
.period-nav a,.jump button{padding:.15rem .5rem}
}
`;
