/**
 * What every request to `recall ui` must pass: the right Host (no DNS rebinding), no foreign Origin
 * (no cross-site request), the session's token in an HttpOnly SameSite=Strict cookie, and on a POST the
 * token again in the form or a header. The token itself never leaves the process in a URL: a URL carries
 * a one-time code (one-time-codes.ts) that is traded for the cookie and dies. Every answer carries a
 * strict CSP.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { OneTimeCodes } from './one-time-codes.js';

/** Cookies are shared by every port of a host: one name per port lets two `recall ui` run side by side. */
export function tokenCookie(port: number): string {
  return `recall_ui_${port}`;
}
export const TOKEN_FIELD = '_token';
export const TOKEN_HEADER = 'x-recall-token';

export const CODE_PARAM = 'code';

export interface UiAccess {
  /** The session's secret: the cookie's value and the write token of the forms. */
  token: string;
  /** The codes of the URLs handed out, each traded once for the cookie. */
  codes: OneTimeCodes;
  /** Known once the server listens (`--port 0` picks it). */
  port(): number;
}

export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function guardRequests(access: UiAccess): MiddlewareHandler {
  return async (c, next) => {
    setSecurityHeaders(c);
    const hosts = allowedHosts(access.port());
    if (!hosts.includes(c.req.header('host') ?? '')) return c.text('refused: this server answers only 127.0.0.1 and localhost', 403);
    const origin = c.req.header('origin');
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) return c.text('refused: a request from another origin', 403);
    const url = new URL(c.req.url);
    const code = url.searchParams.get(CODE_PARAM);
    const signedIn = sameToken(getCookie(c, tokenCookie(access.port())), access.token);
    if (code !== null) {
      // Redeemed even for a browser already signed in: a code is good for one use, whoever uses it.
      const fresh = access.codes.redeem(code);
      if (!fresh && !signedIn) return c.text('this link was used already or has expired (each link of recall ui opens the page once): stop recall ui and start it again', 401);
      setCookie(c, tokenCookie(access.port()), access.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      url.searchParams.delete(CODE_PARAM);
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (!signedIn) return c.text('not signed in: open the link recall ui printed', 401);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const form = c.req.header(TOKEN_HEADER) ?? (await formToken(c));
      if (!sameToken(form, access.token)) return c.text('refused: a write without the token', 403);
    }
    await next();
  };
}

async function formToken(c: Context): Promise<string | undefined> {
  const body = await c.req.parseBody();
  const value = body[TOKEN_FIELD];
  return typeof value === 'string' ? value : undefined;
}

function setSecurityHeaders(c: Context): void {
  c.header('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
  c.header('X-Content-Type-Options', 'nosniff');
  // Not no-referrer: a browser then sends `Origin: null` with the page's own forms.
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
}
