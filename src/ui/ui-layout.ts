/** The page frame of `recall ui`: header with the pages and the review count, a stylesheet served by recall itself. */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const PAGES = [
  ['/', 'Memories'],
  ['/review', 'Review'],
  ['/next-session', 'Next session'],
  ['/sessions', 'Sessions'],
  ['/endless', 'Endless'],
  ['/health', 'Health'],
] as const;

export function layout(title: string, pending: number, body: Html | string): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · recall</title><link rel="stylesheet" href="/assets/ui.css"></head>
<body><header><strong>recall</strong><nav>${PAGES.map(([href, name]) => html`<a href="${href}">${name}${href === '/review' && pending > 0 ? html` <span class="badge" id="pending">${pending}</span>` : ''}</a>`)}</nav></header>
<main><h1>${title}</h1>${body}</main></body></html>`;
}

/** A POST form carrying the token; one button. */
export function postButton(action: string, token: string, label: string, extra: Html | string = '', cls = ''): Html {
  return html`<form method="post" action="${action}" class="inline">${extra}<input type="hidden" name="_token" value="${token}"><button type="submit" class="${cls}">${label}</button></form>`;
}

export const UI_CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f7f8fa}
header{display:flex;gap:24px;align-items:center;padding:10px 20px;background:#1d2330;color:#fff}
header a{color:#cfd8ea;margin-right:14px;text-decoration:none}header a:hover{color:#fff}
.badge{background:#d9534f;color:#fff;border-radius:9px;padding:0 7px;font-size:12px}
main{padding:12px 20px;max-width:1200px}h1{font-size:20px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e3e6ec;padding:6px 8px;text-align:left;vertical-align:top}
th{font-weight:600;background:#eef1f6}td.text{white-space:pre-wrap;word-break:break-word;max-width:560px}
.quarantined{background:#fff4e5}.tag{font-size:11px;border-radius:4px;padding:1px 5px;background:#eef1f6}
.tag.held{background:#f0ad4e;color:#fff}form.inline{display:inline}form.filters{margin:8px 0 14px}
input,select,textarea,button{font:inherit}textarea{width:100%;max-width:760px}
button.danger{color:#b52b27}pre{white-space:pre-wrap;background:#fff;border:1px solid #e3e6ec;padding:10px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px}dt{font-weight:600}
progress{width:260px}.ok{color:#2e7d32}.fail{color:#b52b27}.warn{color:#a56a00}.muted{color:#6b7385}
`;
