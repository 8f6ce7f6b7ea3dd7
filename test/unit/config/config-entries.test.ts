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
});
