/**
 * The notice after a change (post-redirect-get without a script): the write redirects to a page whose
 * URL names what happened from a closed list (`done=forgot&n=2&undo=<key>`); the page says it in words,
 * with an Undo button after a forget. Nothing from the URL is shown but a count.
 */
import { html } from 'hono/html';
import type { Html } from './ui-layout.js';
import { postButton } from './ui-layout.js';

const DONE = ['edited', 'edited-held', 'added', 'added-held', 'known', 'forgot', 'restored', 'approved', 'undo-gone'] as const;
export type Done = (typeof DONE)[number];

/** `path` with the notice's parameters added (it may hold a query already). */
export function withNotice(path: string, done: Done, extra: { n?: number; undo?: string; redacted?: number } = {}): string {
  const params = new URLSearchParams({ done, ...(extra.n === undefined ? {} : { n: String(extra.n) }), ...(extra.undo === undefined ? {} : { undo: extra.undo }), ...(extra.redacted ? { redacted: String(extra.redacted) } : {}) });
  const [base = '/', query = ''] = path.split('?', 2);
  const kept = new URLSearchParams(query);
  for (const name of ['done', 'n', 'undo', 'redacted']) kept.delete(name);
  for (const [name, value] of params) kept.set(name, value);
  return `${base}?${kept.toString()}`;
}

/** A place inside the page to go back to; anything else (another host, `//x`) is the first page. */
export function safeBack(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && value.length < 2_000 ? value : '/';
}

export function renderNotice(query: (name: string) => string | undefined, token: string): Html | '' {
  const done = query('done');
  if (!(DONE as readonly string[]).includes(done ?? '')) return '';
  const n = Math.max(1, Math.min(100_000, Number.parseInt(query('n') ?? '1', 10) || 1));
  const memories = `${n} memor${n === 1 ? 'y' : 'ies'}`;
  const undo = query('undo');
  const redacted = Math.max(0, Math.min(1_000, Number.parseInt(query('redacted') ?? '0', 10) || 0));
  const secrets = redacted === 0 ? '' : ` ${redacted} secret${redacted === 1 ? ' was' : 's were'} replaced by [REDACTED:…] first.`;
  const words: Record<Done, string> = {
    edited: 'Saved: the memory has its new text and type; the next session gets it.',
    'edited-held': 'Saved: the memory has its new text and type. It is still held for review: no session gets it until you approve it.',
    added: `Added the memory; the next session of its project gets it.${secrets}`,
    'added-held': `Added the memory, held for review (its page says why): no session gets it until you approve it.${secrets}`,
    known: 'Already known: the store holds this memory, so its seen count went up instead.',
    forgot: `Forgot ${memories}.`,
    restored: `Restored ${memories}, as ${n === 1 ? 'it was' : 'they were'}.`,
    approved: `Approved ${memories}: sessions see ${n === 1 ? 'it' : 'them'} now.`,
    'undo-gone': 'Nothing to undo: it was undone already, or its window (30 minutes, while this page runs) has passed.',
  };
  const button = done === 'forgot' && undo !== undefined && /^[\w-]{1,40}$/.test(undo)
    ? postButton('/undo', token, 'Undo', html`<input type="hidden" name="key" value="${undo}">`, '', `Undo: bring back the ${memories} just forgotten`)
    : '';
  return html`<div class="flash" role="status" id="notice">${words[done as Done]}${button}</div>`;
}
