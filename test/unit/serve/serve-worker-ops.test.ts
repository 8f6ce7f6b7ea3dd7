import { describe, expect, it } from 'vitest';
import { IMPORTANCE_BY_TYPE, type MemoryRecord } from '../../../src/core/memory.js';
import type { Logger } from '../../../src/core/log.js';
import type { ListOptions, MemoryStore } from '../../../src/core/ports.js';
import { renderContextTargets } from '../../../src/context/render-targets.js';
import { createHashEmbedder } from '../../../src/embed/hash-embedder.js';
import { createWorkerOps } from '../../../src/serve/serve-worker-ops.js';
import { decodeVectors, type ServeIdentity } from '../../../src/serve-client/serve-protocol.js';

const IDENTITY: ServeIdentity = { embedder: 'hash', store: 'store-a' };
const NOW = '2025-03-10T12:00:00.000Z';
const RULE: MemoryRecord = {
  id: 'm1', content: 'You MUST use pnpm.', type: 'golden_rule', importance: IMPORTANCE_BY_TYPE.golden_rule,
  namespace: 'project:shop-0123abcd', projectRoot: null, sessionId: null, source: 'claude', embedder: 'hash:384',
  createdAt: NOW, lastSeenAt: NOW, seenCount: 1,
};
const store = {
  list: (options: ListOptions) => Promise.resolve(options.namespace === RULE.namespace && options.type === RULE.type ? [RULE] : []),
} as unknown as MemoryStore;

function opsWithLog() {
  const lines: string[] = [];
  const logger: Logger = { log: (_level, message) => void lines.push(message) };
  const embedder = createHashEmbedder();
  return { lines, ops: createWorkerOps({ embedder: () => Promise.resolve(embedder), store: () => Promise.resolve(store) }, IDENTITY, logger) };
}

const TARGETS = [{ namespace: RULE.namespace, projectName: 'shop', withGlobal: true }];

describe('recall serve answering workers', () => {
  it('embeds for a client with its configuration, exactly as the client would', async () => {
    const { ops, lines } = opsWithLog();
    const answer = await ops.embed({ v: 1, op: 'embed', expect: IDENTITY, texts: ['use pnpm'] });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.embedder).toBe('hash:384');
    expect(decodeVectors(answer.count, answer.dimension, answer.vectors)).toEqual(await createHashEmbedder().embed(['use pnpm']));
    expect(lines).toContain('serve: embedded for a client');
  });

  it('renders context with the client settings and time', async () => {
    const { ops } = opsWithLog();
    const answer = await ops.context({ v: 1, op: 'context', expect: IDENTITY, targets: TARGETS, maxChars: 6000, now: NOW });
    expect(answer).toEqual({ ok: true, rendered: await renderContextTargets(TARGETS, store, { maxChars: 6000, now: new Date(NOW) }) });
    expect(answer.ok && answer.rendered[0]!.text).toContain('You MUST use pnpm.');
  });

  it.each([
    ['another embedder', { embedder: 'transformers:Xenova/all-MiniLM-L6-v2', store: 'store-a' }],
    ['another store', { embedder: 'hash', store: 'store-b' }],
  ])('refuses a client with %s, and says so in its log', async (_, expectIdentity) => {
    const { ops, lines } = opsWithLog();
    expect(await ops.embed({ v: 1, op: 'embed', expect: expectIdentity, texts: ['x'] })).toMatchObject({ ok: false, reason: 'refused' });
    expect(await ops.context({ v: 1, op: 'context', expect: expectIdentity, targets: TARGETS, maxChars: 6000, now: NOW })).toMatchObject({ ok: false, reason: 'refused' });
    expect(lines.filter((l) => l.startsWith('serve: refused'))).toHaveLength(2);
    expect(lines).not.toContain('serve: embedded for a client');
  });

  it('answers a malformed request with a failure, not a throw', async () => {
    const { ops } = opsWithLog();
    expect(await ops.embed({ v: 1, op: 'embed', expect: IDENTITY, texts: [1] })).toMatchObject({ ok: false, reason: 'failed' });
    expect(await ops.context({ v: 1, op: 'context', expect: IDENTITY, targets: TARGETS, maxChars: 6000, now: 'soon' })).toMatchObject({ ok: false, reason: 'failed' });
  });
});
