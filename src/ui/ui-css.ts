/**
 * The stylesheet of `recall ui`, served by recall itself (the CSP allows nothing else). Two themes as
 * CSS variables, the dark one from `prefers-color-scheme`; each text colour is paired with the
 * backgrounds it is drawn on at a contrast of at least 4.5:1 (a test computes it from this file). Below
 * 860 px every table becomes one card per row (each cell says what it is), and stored text breaks
 * anywhere it must, so the page is never wider than the screen.
 */
export const THEMES = {
  light: {
    text: '#1d2330', bg: '#f7f8fa', surface: '#ffffff', muted: '#555d6e', link: '#1a56b0', border: '#d5dae3', head: '#eef1f6',
    'header-bg': '#1d2330', 'header-text': '#ffffff', 'nav-text': '#dfe6f3', 'held-bg': '#9a4d00', 'held-text': '#ffffff',
    'tag-bg': '#e6e9ef', 'tag-text': '#1d2330', danger: '#b3261e', ok: '#2e7d32', warn: '#8a5a00', 'badge-bg': '#b3261e',
    'badge-text': '#ffffff', 'held-row': '#fff4e5', 'flash-bg': '#e7f4ea', 'flash-text': '#1d4d23', 'mark-bg': '#ffe08a', 'mark-text': '#1d2330',
  },
  dark: {
    text: '#e6e9ef', bg: '#12161f', surface: '#1b202b', muted: '#a3abbb', link: '#8ab4ff', border: '#394152', head: '#232937',
    'header-bg': '#0b0e14', 'header-text': '#ffffff', 'nav-text': '#cfd8ea', 'held-bg': '#f0ad4e', 'held-text': '#1b1300',
    'tag-bg': '#2c3342', 'tag-text': '#e6e9ef', danger: '#ff8a80', ok: '#81c784', warn: '#ffcc80', 'badge-bg': '#ff8a80',
    'badge-text': '#1b0000', 'held-row': '#2b2216', 'flash-bg': '#1f3a26', 'flash-text': '#c8efd0', 'mark-bg': '#5c4a00', 'mark-text': '#fff3c4',
  },
} as const;

export type ThemeColour = keyof (typeof THEMES)['light'];

/** Each text colour with the backgrounds the stylesheet draws it on. */
export const CONTRAST_PAIRS: ReadonlyArray<readonly [ThemeColour, ThemeColour]> = [
  ['text', 'bg'], ['text', 'surface'], ['text', 'head'], ['text', 'held-row'], ['muted', 'surface'], ['muted', 'bg'], ['muted', 'held-row'],
  ['link', 'surface'], ['link', 'bg'], ['link', 'held-row'], ['link', 'head'], ['header-text', 'header-bg'], ['nav-text', 'header-bg'],
  ['held-text', 'held-bg'], ['tag-text', 'tag-bg'], ['danger', 'surface'], ['danger', 'held-row'], ['ok', 'surface'], ['warn', 'surface'],
  ['warn', 'bg'], ['badge-text', 'badge-bg'], ['flash-text', 'flash-bg'], ['mark-text', 'mark-bg'], ['text', 'tag-bg'],
];

const variables = (theme: Record<string, string>): string => Object.entries(theme).map(([name, value]) => `--${name}:${value}`).join(';');

export const UI_CSS = `
:root{color-scheme:light;${variables(THEMES.light)}}
@media (prefers-color-scheme: dark){:root{color-scheme:dark;${variables(THEMES.dark)}}}
*,*::before,*::after{box-sizing:border-box}
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:var(--text);background:var(--bg)}
a{color:var(--link)}
.skip{position:absolute;left:8px;top:-40px;background:var(--surface);color:var(--link);padding:6px 10px;z-index:1}.skip:focus{top:8px}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header{display:flex;flex-wrap:wrap;gap:6px 24px;align-items:center;padding:10px 20px;background:var(--header-bg);color:var(--header-text)}
header a{color:var(--nav-text);margin-right:14px;text-decoration:none}header a:hover,header a:focus{color:var(--header-text);text-decoration:underline}
header nav{display:flex;flex-wrap:wrap;gap:4px 0}
.badge{background:var(--badge-bg);color:var(--badge-text);border-radius:9px;padding:0 7px;font-size:12px}
main{padding:12px 20px;max-width:1200px}h1{font-size:20px}
table{border-collapse:collapse;width:100%;background:var(--surface)}th,td{border-bottom:1px solid var(--border);padding:6px 8px;text-align:left;vertical-align:top}
th{font-weight:600;background:var(--head)}.text{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:isolate}td.text{max-width:560px;min-width:16em}
td.name{overflow-wrap:anywhere;min-width:9ch;max-width:20em}main p,main li,main dd,main h1,main h2,main summary,main label{overflow-wrap:anywhere}
.quarantined{background:var(--held-row)}.tag{font-size:12px;border-radius:4px;padding:1px 5px;background:var(--tag-bg);color:var(--tag-text)}
.tag.held{background:var(--held-bg);color:var(--held-text)}form.inline{display:inline}form.filters{margin:8px 0 14px;display:flex;flex-wrap:wrap;gap:6px}
input,select,textarea,button{font:inherit;color:var(--text);background:var(--surface);border:1px solid var(--border);border-radius:4px;padding:3px 8px;max-width:100%}
::placeholder{color:var(--muted);opacity:1}button{cursor:pointer}textarea{width:100%;max-width:760px}
.danger,button.danger{color:var(--danger)}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--surface);border:1px solid var(--border);padding:10px;unicode-bidi:isolate}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 14px}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
progress{width:260px;max-width:40vw}.ok{color:var(--ok)}.fail{color:var(--danger)}.warn{color:var(--warn)}.muted,.info{color:var(--muted)}
.flash{background:var(--flash-bg);color:var(--flash-text);border-radius:4px;padding:8px 12px;margin:8px 0}
.flash form{display:inline;margin-left:8px}
mark.hidden-char{background:var(--mark-bg);color:var(--mark-text);border-radius:3px;padding:0 2px;font-family:ui-monospace,monospace;font-size:12px}
.totals{margin:4px 0 10px}.actions{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0}
fieldset{border:1px solid var(--border);border-radius:4px;margin:12px 0;max-width:780px}
@media (max-width: 860px){
header{padding:8px 12px;gap:4px 12px}main{padding:8px 12px}
table,tbody,tr,td{display:block;width:auto;max-width:none;min-width:0}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
tr{border-bottom:1px solid var(--border);padding:6px 0}td{border:0;padding:2px 8px;overflow-wrap:anywhere}
td[data-label]::before{content:attr(data-label) ": ";font-weight:600}
td.text,td.name{max-width:none;min-width:0}
dl{grid-template-columns:1fr}dd{margin-bottom:6px}
}
`;
