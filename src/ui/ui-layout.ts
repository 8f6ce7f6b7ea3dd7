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

/** The frame: a skip link, the pages (the review count on Review), the notice of the last change, the page. */
export function layout(title: string, pending: number, body: Html | string, notice: Html | string = ''): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · recall</title><link rel="stylesheet" href="/assets/ui.css"></head>
<body><a class="skip" href="#main">Skip to content</a><header><strong>recall</strong><nav aria-label="pages">${PAGES.map(([href, name]) => html`<a href="${href}">${name}${href === '/review' && pending > 0 ? html` <span class="badge" id="pending">${pending}<span class="vh"> held for review</span></span>` : ''}</a>`)}</nav></header>
<main id="main" tabindex="-1"><h1>${title}</h1>${notice}${body}</main></body></html>`;
}

/** A POST form carrying the token; one button, named for screen readers by `ariaLabel` when given (which memory it acts on). */
export function postButton(action: string, token: string, label: string, extra: Html | string = '', cls = '', ariaLabel?: string): Html {
  return html`<form method="post" action="${action}" class="inline">${extra}<input type="hidden" name="_token" value="${token}"><button type="submit" class="${cls}"${ariaLabel === undefined ? '' : html` aria-label="${ariaLabel}"`}>${label}</button></form>`;
}
