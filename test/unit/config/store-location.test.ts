import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/config/schema.js';
import { describeStoreLocation } from '../../../src/core/store-location.js';
import { resolveStoreLocation } from '../../../src/config/store-location.js';

const paths = { dbDir: '/home/dev/.recall/db' };
const KEYS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG' };
const at = (store: Record<string, unknown>) => resolveStoreLocation(configSchema.parse({ store }), paths);

describe('resolveStoreLocation', () => {
  it('keeps memories in RECALL_HOME/db by default', () => {
    expect(at({})).toEqual({ kind: 'local', uri: '/home/dev/.recall/db' });
  });

  it('takes another absolute folder, and refuses a relative one', () => {
    expect(at({ uri: '/mnt/shared/recall/' })).toEqual({ kind: 'local', uri: '/mnt/shared/recall' });
    expect(() => at({ uri: 'recall-db' })).toThrow(/absolute folder or s3:\/\/bucket\/prefix/);
  });

  it('parses s3://bucket/prefix with an S3-compatible endpoint and the credentials', () => {
    expect(at({ uri: 's3://team-memories/recall/prod/', s3: { endpoint: 'http://10.0.0.5:9000/', region: 'eu-west-1', ...KEYS } })).toEqual({
      kind: 's3',
      uri: 's3://team-memories/recall/prod',
      bucket: 'team-memories',
      prefix: 'recall/prod',
      endpoint: 'http://10.0.0.5:9000',
      region: 'eu-west-1',
      credentials: { ...KEYS, sessionToken: null },
    });
    expect(at({ uri: 's3://team-memories', s3: KEYS })).toMatchObject({ bucket: 'team-memories', prefix: '', endpoint: null, region: 'us-east-1' });
  });

  it('refuses an s3:// store without credentials, other schemes and a malformed endpoint, with the fix in the message', () => {
    expect(() => at({ uri: 's3://team-memories/x' })).toThrow(/needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(() => at({ uri: 's3://team-memories/x', s3: { accessKeyId: 'AKIDEXAMPLE' } })).toThrow(/needs credentials/);
    expect(() => at({ uri: 'gs://bucket/x', s3: KEYS })).toThrow(/store.uri "gs:\/\/bucket\/x" is not supported/);
    expect(() => at({ uri: 's3://UPPER/x', s3: KEYS })).toThrow(/not supported/);
    expect(() => at({ uri: 's3://team-memories/x', s3: { ...KEYS, endpoint: 'minio:9000' } })).toThrow(/store.s3.endpoint must be a base URL/);
  });

  it('describes a location without its credentials', () => {
    const shared = at({ uri: 's3://team-memories/recall', s3: { endpoint: 'http://10.0.0.5:9000', ...KEYS } });
    expect(describeStoreLocation(shared)).toBe('s3://team-memories/recall at http://10.0.0.5:9000');
    expect(describeStoreLocation(at({}))).toBe('/home/dev/.recall/db');
  });
});
