import { describe, expect, it } from 'vitest';
import { checkStore } from '../../../src/doctor/check-store.js';

const ID = 'transformers:Xenova/all-MiniLM-L6-v2';
const LOCAL = { kind: 'local', uri: '/h/db' } as const;
const SHARED = {
  kind: 's3', uri: 's3://team/recall', bucket: 'team', prefix: 'recall', endpoint: 'http://10.0.0.5:9000', region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG', sessionToken: null },
} as const;

describe('checkStore', () => {
  it('passes when there is no database yet', () => {
    expect(checkStore(ID, LOCAL, { state: 'absent' })).toMatchObject({ status: 'ok', detail: expect.stringMatching(/no database yet/) });
  });

  it('passes a database made with the configured embedder', () => {
    expect(checkStore(ID, LOCAL, { state: 'open', info: { embedder: ID, dimension: 384 }, count: 12 })).toMatchObject({
      status: 'ok',
      detail: `12 memories, embedder ${ID} matches the config`,
    });
  });

  it('fails an embedder mismatch with recall reindex as the fix', () => {
    const result = checkStore(ID, LOCAL, { state: 'open', info: { embedder: 'hash', dimension: 384 }, count: 3 });
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/embedded with hash .* config says transformers/);
    expect(result.fix).toMatch(/^recall reindex/);
  });

  it('fails a database that cannot be read', () => {
    expect(checkStore(ID, LOCAL, { state: 'failed', message: 'corrupt manifest' })).toMatchObject({ status: 'fail', detail: 'cannot read /h/db: corrupt manifest' });
  });

  it('names the shared store and what to check, never its credentials, when it cannot be read', () => {
    const result = checkStore(ID, SHARED, { state: 'failed', message: 'STORE_UNREACHABLE: cannot reach the object store' });
    expect(result.status).toBe('fail');
    expect(result.detail).toBe('cannot read s3://team/recall at http://10.0.0.5:9000: STORE_UNREACHABLE: cannot reach the object store');
    expect(result.fix).toMatch(/http:\/\/10\.0\.0\.5:9000 answers.*AWS_ACCESS_KEY_ID/);
    expect(JSON.stringify(result)).not.toContain('wJalrXUtnFEMI');
  });

  it('fails a table with unreadable data files, counting what is lost, with recall repair as the fix', () => {
    const result = checkStore(ID, LOCAL, { state: 'damaged', count: 3, damagedFiles: 1, readableRows: 2, textIndexDamaged: true });
    expect(result).toMatchObject({ status: 'fail', detail: '/h/db: 1 of 3 memories cannot be read (1 damaged data file)', fix: expect.stringMatching(/^recall repair/) });
  });

  it('fails a table whose text index does not load', () => {
    const result = checkStore(ID, LOCAL, { state: 'damaged', count: 3, damagedFiles: 0, readableRows: 3, textIndexDamaged: true });
    expect(result).toMatchObject({ status: 'fail', detail: '/h/db: the text index does not load' });
  });
});
