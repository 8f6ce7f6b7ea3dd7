import { describe, expect, it } from 'vitest';
import { checkStore } from '../../../src/doctor/check-store.js';

const ID = 'transformers:Xenova/all-MiniLM-L6-v2';

describe('checkStore', () => {
  it('passes when there is no database yet', () => {
    expect(checkStore(ID, '/h/db', { state: 'absent' })).toMatchObject({ status: 'ok', detail: expect.stringMatching(/no database yet/) });
  });

  it('passes a database made with the configured embedder', () => {
    expect(checkStore(ID, '/h/db', { state: 'open', info: { embedder: ID, dimension: 384 }, count: 12 })).toMatchObject({
      status: 'ok',
      detail: `12 memories, embedder ${ID} matches the config`,
    });
  });

  it('fails an embedder mismatch with recall reindex as the fix', () => {
    const result = checkStore(ID, '/h/db', { state: 'open', info: { embedder: 'hash', dimension: 384 }, count: 3 });
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/embedded with hash .* config says transformers/);
    expect(result.fix).toMatch(/^recall reindex/);
  });

  it('fails a database that cannot be read', () => {
    expect(checkStore(ID, '/h/db', { state: 'failed', message: 'corrupt manifest' })).toMatchObject({ status: 'fail', detail: 'cannot read /h/db: corrupt manifest' });
  });
});
