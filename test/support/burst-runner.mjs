// Starts many SessionEnd hooks at once, the way agents ending sessions together do, and reports how
// long each took to return. Run as a child process of its own (at a lower priority, under `nice`), so
// the burst never starves the test runner that started it. Plain JavaScript: no build step.
//   node burst-runner.mjs <spec.json>
// spec: { cli, env, payloads: [...], stdin: 'pipe' | 'file', dir, args? }. Each process runs
// `node <cli> hook session-end`, or `node <args>` when args are given (the bench's bare-node floor).
// Prints one JSON array on stdout:
// [{ ms, exitCode, stdout, stderr }] in payload order.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function startHook(payload, i) {
  return new Promise((resolve) => {
    const text = JSON.stringify(payload);
    let stdin = 'pipe';
    let fd = null;
    if (spec.stdin === 'file') {
      const file = join(spec.dir, `payload-${i}.json`);
      writeFileSync(file, text);
      fd = openSync(file, 'r');
      stdin = fd;
    }
    const started = performance.now();
    const child = spawn(process.execPath, spec.args ?? [spec.cli, 'hook', 'session-end'], { env: spec.env, stdio: [stdin, 'pipe', 'pipe'] });
    if (fd !== null) closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', (err) => resolve({ ms: performance.now() - started, exitCode: -1, stdout, stderr: String(err) }));
    child.on('close', (code) => resolve({ ms: performance.now() - started, exitCode: code ?? -1, stdout, stderr }));
    // A process that exits without reading (the bare-node floor) closes the pipe: not an error here.
    child.stdin?.on('error', () => undefined);
    if (spec.stdin !== 'file') child.stdin.end(text);
  });
}

const results = await Promise.all(spec.payloads.map(startHook));
process.stdout.write(JSON.stringify(results));
