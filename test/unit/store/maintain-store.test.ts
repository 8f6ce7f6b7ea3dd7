import { describe, expect, it } from 'vitest';
import { RecallError } from '../../../src/core/errors.js';
import type { Logger } from '../../../src/core/log.js';
import type { MemoryStore } from '../../../src/core/ports.js';
import { isMaintainable } from '../../../src/core/maintenance.js';
import { maintainStoreAfterCapture, runMaintenance } from '../../../src/store/maintain-store.js';
import type { MaintainableStore, MaintenancePolicy, MaintenanceReport } from '../../../src/core/maintenance.js';

const POLICY: MaintenancePolicy = { vectorIndexMinRows: 300, optimizeEveryVersions: 10 };
const REPORT: MaintenanceReport = { rows: 350, vectorIndex: 'built', textIndex: true, idIndex: true, versions: 12, optimized: true, ms: 5 };

function recordingLogger(): Logger & { lines: Array<{ level: string; message: string }> } {
  const lines: Array<{ level: string; message: string }> = [];
  return { lines, log: (level, message) => lines.push({ level, message }) };
}

/** Only the parts upkeep touches; the rest of the port is never called. */
function storeDouble(parts: Partial<MaintainableStore> = {}): MaintainableStore {
  return { maintenanceDue: () => Promise.resolve(true), maintain: () => Promise.resolve(REPORT), ...parts } as MaintainableStore;
}

describe('maintainStoreAfterCapture', () => {
  it('starts upkeep in the background when the store says some is due', async () => {
    const seen: MaintenancePolicy[] = [];
    let started = 0;
    const logger = recordingLogger();
    const store = storeDouble({ maintenanceDue: (policy) => { seen.push(policy); return Promise.resolve(true); } });
    expect(await maintainStoreAfterCapture({ store: () => Promise.resolve(store), policy: POLICY, startInBackground: () => { started += 1; return Promise.resolve(true); }, logger })).toBe(true);
    expect(seen).toEqual([POLICY]);
    expect(started).toBe(1);
    expect(logger.lines.map((l) => l.level)).toEqual(['info']);
  });

  it('starts nothing when no upkeep is due', async () => {
    let started = 0;
    const store = storeDouble({ maintenanceDue: () => Promise.resolve(false) });
    expect(await maintainStoreAfterCapture({ store: () => Promise.resolve(store), policy: POLICY, startInBackground: () => { started += 1; return Promise.resolve(true); }, logger: recordingLogger() })).toBe(false);
    expect(started).toBe(0);
  });

  it('only logs a warning when the check fails, never throws', async () => {
    const logger = recordingLogger();
    const store = storeDouble({ maintenanceDue: () => Promise.reject(new RecallError('STORE_FAILED', 'LanceDB count failed: disk gone')) });
    expect(await maintainStoreAfterCapture({ store: () => Promise.resolve(store), policy: POLICY, startInBackground: () => Promise.resolve(true), logger })).toBe(false);
    expect(logger.lines[0]?.level).toBe('warn');
    expect(logger.lines[0]?.message).toContain('disk gone');
  });

  it('skips stores that cannot maintain themselves', async () => {
    const store = {} as MemoryStore;
    expect(isMaintainable(store)).toBe(false);
    const logger = recordingLogger();
    expect(await maintainStoreAfterCapture({ store: () => Promise.resolve(store), policy: POLICY, startInBackground: () => Promise.resolve(true), logger })).toBe(false);
    expect(logger.lines).toEqual([]);
  });
});

describe('runMaintenance', () => {
  it('hands the store the policy and the store lock, and logs the report', async () => {
    let locked = false;
    let ranLocked = false;
    const logger = recordingLogger();
    const store = storeDouble({
      maintain: (policy, options) => {
        expect(policy).toEqual(POLICY);
        return options?.withStoreLock?.(() => { ranLocked = locked; return Promise.resolve(REPORT); }) ?? Promise.resolve(REPORT);
      },
    });
    const report = await runMaintenance({
      store, policy: POLICY, logger,
      withStoreLock: async (fn) => { locked = true; try { return await fn(); } finally { locked = false; } },
    });
    expect(report).toEqual(REPORT);
    expect(ranLocked).toBe(true);
    expect(logger.lines).toEqual([{ level: 'info', message: 'store maintained' }]);
  });

  it('only logs a warning when upkeep fails or the store lock cannot be had', async () => {
    const logger = recordingLogger();
    const store = storeDouble({ maintain: (_policy, options) => options?.withStoreLock?.(() => Promise.resolve(REPORT)) ?? Promise.resolve(REPORT) });
    const report = await runMaintenance({ store, policy: POLICY, logger, withStoreLock: () => Promise.reject(new RecallError('LOCK_HELD', 'the store lock is held')) });
    expect(report).toBeNull();
    expect(logger.lines.map((l) => l.level)).toEqual(['warn']);
    expect(logger.lines[0]?.message).toContain('store lock is held');
  });
});
