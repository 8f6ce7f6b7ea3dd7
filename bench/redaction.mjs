// The redactor's own cost, in-process on the built module: a 100 KB tool output (what Endless Mode's
// PostToolUse hook redacts before it saves, prompts or answers) and a 10 MB transcript redacted as one
// text; plus the cost of importing the module (fresh node processes). Medians of N runs.
// Usage: npm run build && node bench/redaction.mjs [runs]
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { median } from './measure.mjs';

const runs = Number(process.argv[2] ?? 9);
const moduleUrl = new URL('../dist/redact/redact-secrets.js', import.meta.url).href;
const { redactSecrets } = await import(moduleUrl);

/** Tool output as agents see it: source, test logs, a listing, JSON, and now and then a secret. */
function toolOutput(bytes) {
  const source = 'export function handler(req, res) {\n  const total = req.items.reduce((sum, item) => sum + item.cents, 0);\n  return res.json({ total, token: req.token });\n}\n';
  const log = '2026-01-01T00:00:00Z INFO request served in 12 ms path=/api/orders status=200 key=orders:42\n';
  const listing = '-rw-r--r--  1 dev dev  4096 Nov 26 10:00 package.json\n';
  const json = '{"id":"3f2b8c1e-9d4a-4e7b-8c2d-1a5f6e7d8c9b","sha":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b","password":"s3cr3t-Val"}\n';
  const secret = `export GITHUB_TOKEN=ghp_${'a1B2c3D4e5'.repeat(3)}abcdef\nPASSWORD=correct horse battery staple\n`;
  const parts = [];
  let size = 0;
  for (let k = 0; size < bytes; k += 1) {
    const part = [source, log.repeat(5), listing.repeat(3), json, k % 10 === 0 ? secret : ''][k % 5];
    parts.push(part);
    size += part.length;
  }
  return parts.join('').slice(0, bytes);
}

function time(text) {
  redactSecrets(text); // warm-up
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    redactSecrets(text);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

function importCost() {
  const script = `const t = performance.now(); await import(${JSON.stringify(moduleUrl)}); process.stdout.write(String(performance.now() - t));`;
  const samples = [];
  for (let i = 0; i < runs; i += 1) samples.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })));
  return median(samples);
}

const small = toolOutput(100_000);
const large = toolOutput(10_000_000);
const first = (() => {
  const script = `const { redactSecrets } = await import(${JSON.stringify(moduleUrl)}); const text = ${JSON.stringify(small)}; const t = performance.now(); redactSecrets(text); process.stdout.write(String(performance.now() - t));`;
  const samples = [];
  for (let i = 0; i < runs; i += 1) samples.push(Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })));
  return median(samples);
})();
console.log(`redact 100 KB tool output, warm: ${time(small).toFixed(1)} ms (median of ${runs})`);
console.log(`redact 100 KB tool output, first call in a new process (as in the hook): ${first.toFixed(1)} ms`);
console.log(`redact 10 MB transcript text, warm: ${time(large).toFixed(1)} ms`);
console.log(`import the redactor in a new process: ${importCost().toFixed(1)} ms`);
