/**
 * Starts a hook the way an agent does: spawn, write the payload to stdin at once, close it.
 * (execa's `input` is written only once the test process gets round to it; with 200 spawns in a
 * row that is seconds later, past the hook's stdin time limit, which no agent does.)
 */
import { spawn } from 'node:child_process';
import { CLI, type CliResult } from './cli.js';

export function startHook(event: string, payload: unknown, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'hook', event], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (err) => resolve({ exitCode: -1, stdout, stderr: String(err) }));
    child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}
