import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { currentOwner, isOwnerAlive, ownedName, ownerOf, unownedName } from '../../../src/core/job-owner.js';

const linux = existsSync('/proc/self/stat');

describe('job owners', () => {
  it('signs a job file name with the claiming process and reads it back', () => {
    const name = ownedName('01JABCDEF.json', { pid: 4242, start: '987654' });
    expect(name).toBe('01JABCDEF@4242-987654.json');
    expect(ownerOf(name)).toEqual({ pid: 4242, start: '987654' });
    expect(unownedName(name)).toBe('01JABCDEF.json');
    expect(ownedName(name, { pid: 7, start: '' })).toBe('01JABCDEF@7-0.json');
    expect(ownerOf('01JABCDEF@7-0.json')).toEqual({ pid: 7, start: '' });
  });

  it('finds no owner in a name from an older release or a hand-made file', () => {
    expect(ownerOf('01JABCDEF.json')).toBeNull();
    expect(ownerOf('000000000-damaged.json')).toBeNull();
    expect(unownedName('01JABCDEF.json')).toBe('01JABCDEF.json');
  });

  it('sees this process as alive and a process that exited as gone', async () => {
    expect(isOwnerAlive(currentOwner())).toBe(true);
    const child = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    expect(isOwnerAlive({ pid: Number(child.stdout), start: '' })).toBe(false);
  });

  it.runIf(linux)('sees a reused pid as gone: the start time no longer matches', () => {
    const me = currentOwner();
    expect(me.start).toMatch(/^\d+$/);
    expect(isOwnerAlive({ pid: me.pid, start: String(Number(me.start) + 1) })).toBe(false);
  });
});
