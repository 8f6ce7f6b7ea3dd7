import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damagedHead, listVersionFiles } from '../../../src/adapters/lance-versions.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const U64_MAX = 2n ** 64n - 1n;
const whole = Buffer.concat([Buffer.alloc(40, 7), Buffer.from('LANC')]);

function table(files: Record<string, Buffer>): string {
  const dir = tempDir();
  mkdirSync(join(dir, '_versions'));
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, '_versions', name), body);
  return dir;
}
const v2 = (version: bigint) => `${String(U64_MAX - version).padStart(20, '0')}.manifest`;

describe('Lance version files', () => {
  it('orders both naming schemes newest first and checks each manifest for the LANC magic', () => {
    const dir = table({ [v2(1n)]: whole, [v2(2n)]: whole, [v2(3n)]: Buffer.from('cut'), 'latest_version_hint.json': Buffer.from('{}') });
    expect(listVersionFiles(dir).map((f) => [f.version, f.readable])).toEqual([[3n, false], [2n, true], [1n, true]]);
    const old = table({ '1.manifest': whole, '2.manifest': whole, '10.manifest': whole });
    expect(listVersionFiles(old).map((f) => f.version)).toEqual([10n, 2n, 1n]);
  });

  it('finds the damaged newest versions and the last good one before them', () => {
    const dir = table({ [v2(1n)]: whole, [v2(2n)]: whole, [v2(3n)]: Buffer.alloc(100, 1), [v2(4n)]: Buffer.alloc(0) });
    const { damaged, lastGood } = damagedHead(dir);
    expect(damaged.map((f) => f.version)).toEqual([4n, 3n]);
    expect(lastGood?.version).toBe(2n);
    expect(damagedHead(table({ [v2(1n)]: whole })).damaged).toEqual([]);
    expect(damagedHead(tempDir())).toEqual({ damaged: [], lastGood: null });
  });
});
