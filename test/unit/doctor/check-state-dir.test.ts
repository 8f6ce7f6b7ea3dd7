import { describe, expect, it } from 'vitest';
import { checkStateDir } from '../../../src/doctor/check-state-dir.js';

describe('checkStateDir', () => {
  it('passes a private writable directory', () => {
    expect(checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40700, writable: true })).toMatchObject({ status: 'ok', detail: '/h/.recall (mode 700)' });
  });

  it('passes a missing directory whose parent is writable', () => {
    expect(checkStateDir({ path: '/h/.recall', state: 'missing', parent: '/h', parentWritable: true })).toMatchObject({ status: 'ok', detail: expect.stringMatching(/created on first use/) });
  });

  it('warns when group or others can read the directory, with chmod 700 as the fix', () => {
    const result = checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40755, writable: true });
    expect(result).toMatchObject({ status: 'warn', fix: 'chmod 700 /h/.recall' });
    expect(result.detail).toMatch(/mode 755/);
  });

  it('fails a read-only directory and says how to fix it', () => {
    const result = checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40500, writable: false });
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/read-only/);
    expect(result.fix).toMatch(/chmod 700 \/h\/\.recall.*RECALL_HOME/);
  });

  it('fails when the directory cannot be created', () => {
    const result = checkStateDir({ path: '/ro/.recall', state: 'missing', parent: '/ro', parentWritable: false });
    expect(result.status).toBe('fail');
    expect(result.fix).toMatch(/mkdir -m 700 \/ro\/\.recall/);
  });

  it('fails when the path is a file', () => {
    expect(checkStateDir({ path: '/h/.recall', state: 'not-directory' }).status).toBe('fail');
  });

  it('fails a directory owned by another user', () => {
    const result = checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40700, writable: true, uid: 65534, ownUid: 1000 });
    expect(result).toMatchObject({ status: 'fail', detail: '/h/.recall is owned by uid 65534, not by you (uid 1000); recall refuses to use it' });
  });

  it('fails a directory group or others may write to', () => {
    expect(checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40775, writable: true, uid: 1000, ownUid: 1000 })).toMatchObject({ status: 'fail', fix: 'chmod 700 /h/.recall' });
  });

  it('fails on a problem with a folder inside it, naming the first', () => {
    const result = checkStateDir({ path: '/h/.recall', state: 'directory', mode: 0o40700, writable: true, uid: 1000, ownUid: 1000, folderProblems: ['/h/.recall/db is a symlink', '/h/.recall/spool is a symlink'] });
    expect(result).toMatchObject({ status: 'fail', detail: '/h/.recall/db is a symlink (and 1 more); recall refuses to use it' });
  });
});
