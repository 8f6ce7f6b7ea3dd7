import { appendFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import { statePaths } from '../../../src/core/state-paths.js';
import { adoptIdleSessions } from '../../../src/hook/adopt-idle-sessions.js';
import { Spool } from '../../../src/queue/spool.js';
import { IDLE_SESSION_MS, idleSessions, markCaptured, markSessionClosed, markSessionOpen, safeSessionId, uncapturedSpan } from '../../../src/queue/session-ledger.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

function world() {
  const home = tempDir();
  const transcript = join(tempDir(), 'rollout-2026-11-27T00-00-00-01a2.jsonl');
  writeFileSync(transcript, '{"type":"session_meta","payload":{}}\n');
  return { home, transcript, paths: statePaths(home) };
}

/** Makes the file and the marker look `ms` old. */
function age(transcript: string, ms: number): number {
  const then = (Date.now() - ms) / 1000;
  utimesSync(transcript, then, then);
  return Date.now() - ms;
}

describe('the session ledger', () => {
  it('keeps only plain session ids as file names', () => {
    expect(safeSessionId('01a21da0-5f11-7a80-aa03-d97384fde9ff')).toBe('01a21da0-5f11-7a80-aa03-d97384fde9ff');
    expect(safeSessionId('../../etc/passwd')).toBeNull();
    expect(safeSessionId(null)).toBeNull();
  });

  it('counts a session as ended only once both its last Stop and its file are idle long enough', () => {
    const { home, transcript } = world();
    const stoppedAt = age(transcript, IDLE_SESSION_MS + 1_000);
    markSessionOpen(home, { sessionId: 's1', transcriptPath: transcript, cwd: '/p', agent: 'codex', stoppedAt });
    expect(idleSessions(home, Date.now(), { exceptSessionId: null }).map((s) => s.sessionId)).toEqual(['s1']);
    expect(idleSessions(home, Date.now(), { exceptSessionId: 's1' })).toEqual([]);
    appendFileSync(transcript, '{"more":1}\n');
    expect(idleSessions(home, Date.now(), { exceptSessionId: null })).toEqual([]);
    markSessionClosed(home, 's1');
    age(transcript, IDLE_SESSION_MS + 1_000);
    expect(idleSessions(home, Date.now(), { exceptSessionId: null })).toEqual([]);
  });

  it('gives a later capture of the same session only the bytes no capture has covered, and none when nothing is new', () => {
    const { home, transcript } = world();
    const size = Buffer.byteLength('{"type":"session_meta","payload":{}}\n');
    expect(uncapturedSpan(home, 's1', transcript)).toEqual({ fromByte: 0, toByte: size });
    markCaptured(home, 's1', transcript, size);
    expect(uncapturedSpan(home, 's1', transcript)).toBeNull();
    appendFileSync(transcript, '{"more":1}\n');
    expect(uncapturedSpan(home, 's1', transcript)).toEqual({ fromByte: size, toByte: size + 11 });
    // Another file under the same id (a moved session) starts over.
    expect(uncapturedSpan(home, 's1', `${transcript}.copy`)).toEqual({ fromByte: 0, toByte: null });
  });
});

describe('adoptIdleSessions', () => {
  it('queues an idle session once, for its uncovered bytes, and closes it', () => {
    const { home, transcript, paths } = world();
    const stoppedAt = age(transcript, IDLE_SESSION_MS + 1_000);
    markSessionOpen(home, { sessionId: 's1', transcriptPath: transcript, cwd: '/p', agent: 'codex', stoppedAt });
    expect(adoptIdleSessions(paths, 'current', Date.now(), silentLogger)).toBe(1);
    const [entry] = new Spool(paths).list('pending');
    expect(entry!.job).toMatchObject({ sessionId: 's1', transcriptPath: transcript, cwd: '/p', agent: 'codex', reason: 'idle', fromByte: 0 });
    expect(adoptIdleSessions(paths, 'current', Date.now(), silentLogger)).toBe(0);
    expect(uncapturedSpan(home, 's1', transcript)).toBeNull();
    expect(new Spool(paths).list('pending')).toHaveLength(1);
  });

  it('leaves a session that is still being written alone', () => {
    const { home, transcript, paths } = world();
    markSessionOpen(home, { sessionId: 's1', transcriptPath: transcript, cwd: '/p', agent: 'codex', stoppedAt: Date.now() });
    expect(adoptIdleSessions(paths, 'current', Date.now(), silentLogger)).toBe(0);
    expect(new Spool(paths).list('pending')).toEqual([]);
  });
});
