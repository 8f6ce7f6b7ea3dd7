/**
 * Where the memory table lives: a local folder (the default, RECALL_HOME/db) or an S3-compatible
 * object store shared by several machines. Pure: derived from the parsed config once, then passed
 * to the store adapter, the writer lease and the upkeep process.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Config } from './schema.js';
import type { StatePaths } from '../core/state-paths.js';
import { RecallError } from '../core/errors.js';
import type { StoreLocation } from '../core/store-location.js';

const S3_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

export function resolveStoreLocation(config: Pick<Config, 'store'>, paths: Pick<StatePaths, 'dbDir'>): StoreLocation {
  const uri = config.store.uri.trim();
  if (uri === '') return { kind: 'local', uri: paths.dbDir };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return parseObjectStoreUri(uri, config.store.s3);
  if (!isAbsolute(uri)) throw new RecallError('CONFIG_INVALID', `store.uri must be an absolute folder or s3://bucket/prefix, got "${uri}"`);
  return { kind: 'local', uri: resolve(uri) };
}

function parseObjectStoreUri(uri: string, s3: Config['store']['s3']): StoreLocation {
  const match = S3_URI.exec(uri);
  if (match === null) {
    throw new RecallError('CONFIG_INVALID', `store.uri "${uri}" is not supported: use a local folder or s3://bucket/prefix (S3 or an S3-compatible server)`);
  }
  const bucket = match[1] as string;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  const endpoint = s3.endpoint.trim().replace(/\/+$/, '') || null;
  if (endpoint !== null && !/^https?:\/\/[^/]+$/.test(endpoint)) {
    throw new RecallError('CONFIG_INVALID', `store.s3.endpoint must be a base URL such as http://127.0.0.1:9000, got "${s3.endpoint}"`);
  }
  if (s3.accessKeyId === '' || s3.secretAccessKey === '') {
    throw new RecallError('CONFIG_INVALID', `${uri} needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or store.s3.accessKeyId and store.s3.secretAccessKey)`);
  }
  return {
    kind: 's3',
    uri: `s3://${bucket}${prefix === '' ? '' : `/${prefix}`}`,
    bucket,
    prefix,
    endpoint,
    region: s3.region,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, sessionToken: s3.sessionToken || null },
  };
}
