/** The state directory (RECALL_HOME): present or creatable, writable, the user's own and private, and so are the folders in it. Pure. */
import type { CheckResult } from './check-result.js';

export type StateDirProbe =
  | {
      path: string;
      state: 'directory';
      mode: number;
      writable: boolean;
      /** Its owner, and this user (null where users are not compared). */
      uid?: number;
      ownUid?: number | null;
      /** What is wrong with the folders in it: symlinks, foreign owners, group/world-writable. */
      folderProblems?: readonly string[];
    }
  | { path: string; state: 'missing'; parent: string; parentWritable: boolean }
  | { path: string; state: 'not-directory' }
  | { path: string; state: 'error'; message: string };

export function checkStateDir(probe: StateDirProbe): CheckResult {
  const base = { id: 'state-dir', title: 'State directory' } as const;
  const elsewhere = 'or set RECALL_HOME to a writable folder';
  switch (probe.state) {
    case 'error':
      return { ...base, status: 'fail', detail: `cannot inspect ${probe.path}: ${probe.message}`, fix: `check the permissions of ${probe.path}, ${elsewhere}` };
    case 'not-directory':
      return { ...base, status: 'fail', detail: `${probe.path} exists but is not a directory`, fix: `move ${probe.path} away, ${elsewhere}` };
    case 'missing':
      if (!probe.parentWritable) {
        return { ...base, status: 'fail', detail: `${probe.path} does not exist and ${probe.parent} is read-only`, fix: `mkdir -m 700 ${probe.path} (as a user who may), ${elsewhere}` };
      }
      return { ...base, status: 'ok', detail: `${probe.path} (created on first use)` };
    case 'directory': {
      const mode = (probe.mode & 0o777).toString(8).padStart(3, '0');
      if (probe.uid !== undefined && probe.ownUid !== undefined && probe.ownUid !== null && probe.uid !== probe.ownUid) {
        return { ...base, status: 'fail', detail: `${probe.path} is owned by uid ${probe.uid}, not by you (uid ${probe.ownUid}); recall refuses to use it`, fix: `set RECALL_HOME to a folder of your own` };
      }
      if ((probe.mode & 0o022) !== 0) {
        return { ...base, status: 'fail', detail: `${probe.path} is writable by group or others (mode ${mode})`, fix: `chmod 700 ${probe.path}` };
      }
      const [folder, ...more] = probe.folderProblems ?? [];
      if (folder !== undefined) {
        return { ...base, status: 'fail', detail: `${folder}${more.length > 0 ? ` (and ${more.length} more)` : ''}; recall refuses to use it`, fix: 'move it away (recall makes a private one), or set RECALL_HOME to a folder of your own' };
      }
      if (!probe.writable) {
        return { ...base, status: 'fail', detail: `${probe.path} is read-only (mode ${mode})`, fix: `chmod 700 ${probe.path}, ${elsewhere}` };
      }
      if ((probe.mode & 0o077) !== 0) {
        return { ...base, status: 'warn', detail: `${probe.path} is open to group/others (mode ${mode}); it holds transcripts' memories`, fix: `chmod 700 ${probe.path}` };
      }
      return { ...base, status: 'ok', detail: `${probe.path} (mode ${mode})` };
    }
  }
}
