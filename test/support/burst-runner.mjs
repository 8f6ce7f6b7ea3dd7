// Starts many SessionEnd hooks at once, the way agents ending sessions together do, and reports how
// long each took to return. Run as a child process of its own (at a lower priority, under `nice`), so
// the burst never starves the test runner that started it. Plain JavaScript: no build step.
//   node burst-runner.mjs <spec.json>
// spec: { cli, env, payloads: [...], stdin: 'pipe' | 'file', dir, args?, cpuFile? }. Each process runs
// `node <cli> hook session-end`, or `node <args>` when args are given (the bench's bare-node floor).
// With cpuFile, the CPU time the processes used in all (user + system, from this process's children
// counters in /proc/self/stat; Linux only, else null) is written there as JSON { childCpuMs }.
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

/** CPU ms of the waited-for children so far: cutime + cstime, fields 16 and 17 of /proc/self/stat. */
function childCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): cutime is field 16, cstime field 17. Clock ticks are 100 a second on Linux.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

const results = await Promise.all(spec.payloads.map(startHook));
if (spec.cpuFile) writeFileSync(spec.cpuFile, JSON.stringify({ childCpuMs: childCpuMs() }));
process.stdout.write(JSON.stringify(results));
