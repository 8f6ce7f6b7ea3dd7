/**
 * What every request to `recall ui` must pass: the right Host (no DNS rebinding), no foreign Origin
 * (no cross-site request), the start's token (URL once, then an HttpOnly SameSite=Strict cookie), and
 * on a POST the token again in the form or a header. Every answer carries a strict CSP.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/** Cookies are shared by every port of a host: one name per port lets two `recall ui` run side by side. */
export function tokenCookie(port: number): string {
  return `recall_ui_${port}`;
}
export const TOKEN_FIELD = '_token';
export const TOKEN_HEADER = 'x-recall-token';

export interface UiAccess {
  token: string;
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
    const fromUrl = url.searchParams.get('token');
    if (fromUrl !== null) {
      if (!sameToken(fromUrl, access.token)) return c.text('a wrong token: open the URL recall ui printed', 401);
      setCookie(c, tokenCookie(access.port()), access.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      url.searchParams.delete('token');
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (!sameToken(getCookie(c, tokenCookie(access.port())), access.token)) return c.text('no token: open the URL recall ui printed', 401);
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
