import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { SmartRouter } from 'hono/router/smart-router';
import { formatCount } from '../../../src/ui/format-count.js';
import { prepareFirstRequest } from '../../../src/ui/prepare-first-request.js';

function appWithRoutes(): Hono {
  const app = new Hono();
  app.get('/', (c) => c.text('memories'));
  app.get('/memory/:id', (c) => c.text(`memory ${c.req.param('id')}`));
  return app;
}

describe('prepareFirstRequest', () => {
  it('builds the route matcher before any request, and the routes still answer as before', async () => {
    const app = appWithRoutes();
    const router = app.router as SmartRouter<unknown>;
    expect(() => router.activeRouter).toThrow();
    await prepareFirstRequest(app);
    expect(() => router.activeRouter).not.toThrow();
    expect(await (await app.request('/memory/m1')).text()).toBe('memory m1');
    expect(await (await app.request('/')).text()).toBe('memories');
    expect((await app.request('/nowhere')).status).toBe(404);
  });
});

describe('formatCount', () => {
  it('writes whole numbers with thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(100_000)).toBe('100,000');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
