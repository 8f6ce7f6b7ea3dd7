/**
 * What a daemon and a client compare before the daemon does the client's work: the configured embedder
 * and the store. The socket lives in the state dir, but both can be configured apart from it
 * (environment variables, `store.*` keys), so a daemon and a worker on one state dir may still disagree.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config/schema.js';
import type { ServeIdentity } from './serve-protocol.js';

export function serveIdentity(config: Pick<Config, 'embedder' | 'store'>, dbDir: string): ServeIdentity {
  return { embedder: config.embedder.id, store: storeDigest(dbDir, config.store) };
}

/** The folder of the local table plus every `store.*` setting, digested (no setting travels as such). */
function storeDigest(dbDir: string, store: unknown): string {
  return createHash('sha256').update(JSON.stringify([dbDir, store])).digest('hex').slice(0, 32);
}
