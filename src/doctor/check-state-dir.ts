/** The state directory (RECALL_HOME): present or creatable, writable, private. Pure. */
import type { CheckResult } from './check-result.js';

export type StateDirProbe =
  | { path: string; state: 'directory'; mode: number; writable: boolean }
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
