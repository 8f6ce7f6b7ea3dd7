/**
 * A read that fails on a local table with unreadable data files or a text index that does not load
 * says so, and names the way out: LanceDB's own error only says that some file is not a Lance file
 * or was not found.
 */
import { isRecallError, RecallError } from '../core/errors.js';
import type { StoreLocation } from '../core/store-location.js';
import type { LanceStore } from './lance-store-port.js';

/** The store's reads, which fail when they meet an unreadable data file. */
const READS = ['list', 'get', 'getMany', 'search', 'textSearch', 'vectorScores', 'textScores', 'countByNamespaceAndType', 'findByContentKey', 'nearest', 'lookupMany'] as const;

/** `store` with each read's STORE_FAILED turned into STORE_CORRUPT naming `recall repair` when the table is damaged. */
export function explainDataDamage(store: LanceStore, location: StoreLocation): LanceStore {
  if (location.kind !== 'local') return store;
  const wrapped: LanceStore = { ...store };
  for (const name of READS) {
    const read = store[name] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await read(...args);
      } catch (err) {
        throw await explain(err);
      }
    };
  }
  wrapped.scan = async function* scan(options) {
    try {
      yield* store.scan(options);
    } catch (err) {
      throw await explain(err);
    }
  };
  return wrapped;

  async function explain(err: unknown): Promise<unknown> {
    if (!isRecallError(err, 'STORE_FAILED')) return err;
    try {
      const health = await store.inspectDamage();
      if (health === null) return err;
      if (health.damagedFragments.length === 0) {
        return health.textIndex === 'damaged'
          ? new RecallError('STORE_CORRUPT', `the text index of the memory table in ${location.uri} does not load; run \`recall repair\` to rebuild it`, { cause: err })
          : err;
      }
      const files = health.damagedFragments.length;
      return new RecallError(
        'STORE_CORRUPT',
        `${health.rows - health.readableRows} of ${health.rows} memories in ${location.uri} cannot be read (${files} damaged data file${files === 1 ? '' : 's'}); run \`recall repair\` to keep the rest`,
        { cause: err },
      );
    } catch {
      return err;
    }
  }
}
