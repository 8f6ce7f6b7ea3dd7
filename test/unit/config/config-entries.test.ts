import { describe, expect, it } from 'vitest';
import { listConfigEntries } from '../../../src/config/config-entries.js';
import { configSchema } from '../../../src/config/schema.js';

describe('listConfigEntries', () => {
  it('never shows a secret access key or session token, only that it is set, wherever it comes from', () => {
    const config = configSchema.parse({ store: { s3: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG', sessionToken: 'FwoGZXIvYXdzEJr' } } });
    const entries = listConfigEntries(config, { store: { s3: { secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' } } }, { AWS_SESSION_TOKEN: 'FwoGZXIvYXdzEJr' });
    const byKey = new Map(entries.map((e) => [e.key, e]));
    expect(byKey.get('store.s3.secretAccessKey')).toMatchObject({ value: '(set, hidden)', source: 'file' });
    expect(byKey.get('store.s3.sessionToken')).toMatchObject({ value: '(set, hidden)', source: 'env', envVar: 'AWS_SESSION_TOKEN' });
    expect(byKey.get('store.s3.accessKeyId')?.value).toBe('AKIDEXAMPLE');
    expect(JSON.stringify(entries)).not.toMatch(/wJalrXUtnFEMI|FwoGZXIvYXdzEJr/);
  });

  it('shows an unset secret as the empty default', () => {
    const entries = listConfigEntries(configSchema.parse({}), {}, {});
    expect(entries.find((e) => e.key === 'store.s3.secretAccessKey')).toMatchObject({ value: '', source: 'default' });
  });

  it('says what each key accepts, from its bounds in the key table', () => {
    const byKey = new Map(listConfigEntries(configSchema.parse({}), {}, {}).map((e) => [e.key, e]));
    expect(byKey.get('dedupe.threshold')?.allowed).toBe('a number from 0 to 1');
    expect(byKey.get('endless.syncTimeoutMs')?.allowed).toBe('a whole number from 1 to 85000');
    expect(byKey.get('embedder.allowDownload')?.allowed).toBe('true or false');
    expect([...byKey.values()].every((e) => e.allowed !== '')).toBe(true);
  });
});
