// Capture without the model: the read -> render -> redact -> truncate stage on a 10 MB transcript, timed
// in-process on the built modules (what the worker does before it calls Ollama), median of N runs.
// Target: under 150 ms (issue 30).
// Usage: npm run build && node bench/capture-no-model.mjs [runs] [megabytes]
// BASELINE_DIST=<another build's dist/> times that build too, run for run in turn with this one, and records
// the ratio, named by BASELINE_LABEL (e.g. the build of an earlier commit: `git archive <commit> | tar -x -C /tmp/base`, link
// node_modules, `npx tsc -p tsconfig.build.json` there).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median } from './measure.mjs';
import { recordResult } from './results.mjs';
import { writeBenchTranscript } from './synthetic-transcripts.mjs';

const runs = Number(process.argv[2] ?? 9);
const megabytes = Number(process.argv[3] ?? 10);
const TARGET_MS = 150;
const dist = new URL('../dist/', import.meta.url);
const { readTranscript } = await import(new URL('transcript/read-transcript.js', dist).href);
const { redactSecrets } = await import(new URL('redact/redact-secrets.js', dist).href);
const baselineDist = process.env.BASELINE_DIST ? pathToFileURL(`${resolve(process.env.BASELINE_DIST)}/`) : undefined;
const baseline = baselineDist && {
  readTranscript: (await import(new URL('transcript/read-transcript.js', baselineDist).href)).readTranscript,
  redactSecrets: (await import(new URL('redact/redact-secrets.js', baselineDist).href)).redactSecrets,
};
const { configSchema } = await import(new URL('config/schema.js', dist).href);
const { maxChars } = configSchema.parse({}).transcript;

const root = mkdtempSync(join(tmpdir(), 'recall-bench-capture-'));
try {
  const file = join(root, 'session.jsonl');
  writeBenchTranscript(file, megabytes * 2 ** 20);
  const bytes = statSync(file).size;
  const times = [];
  const cpuTimes = [];
  const baselineCpuTimes = [];
  let last;
  for (let i = 0; i < runs + 1; i += 1) {
    if (baseline) {
      const cpuStarted = process.cpuUsage();
      const transcript = await baseline.readTranscript(file, { maxChars });
      baseline.redactSecrets(transcript.text);
      const cpu = process.cpuUsage(cpuStarted);
      if (i > 0) baselineCpuTimes.push((cpu.user + cpu.system) / 1000);
    }
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const transcript = await readTranscript(file, { maxChars });
    const redacted = redactSecrets(transcript.text);
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuStarted);
    if (i > 0) {
      // the first run warms the module and the page cache
      times.push(ms);
      // CPU time of the process (all its threads: the garbage collector's and the file reads' too): on a
      // shared machine it moves less with the load than the wall clock does.
      cpuTimes.push((cpu.user + cpu.system) / 1000);
    }
    // Read once, after the last run: the full rendered length measures every tool output's snippet, which capture
    // itself never asks for (it would add work, and garbage, to the runs after it).
    if (i === runs) last = { turns: transcript.turns, renderedChars: transcript.totalChars, keptChars: redacted.text.length };
  }
  const medianMs = round(median(times));
  const medianCpuMs = round(median(cpuTimes));
  console.log(`Capture without the model (read -> render -> redact -> truncate), ${(bytes / 2 ** 20).toFixed(1)} MB transcript, median of ${runs}: ${medianMs} ms (target < ${TARGET_MS} ms), CPU ${medianCpuMs} ms; load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`  ${last.turns} turns, ${last.renderedChars} rendered chars, ${last.keptChars} kept for the model`);
  const against = baseline ? { baselineDist: process.env.BASELINE_LABEL ?? process.env.BASELINE_DIST, baselineMedianCpuMs: round(median(baselineCpuTimes)), cpuRatio: Math.round((median(cpuTimes) / median(baselineCpuTimes)) * 100) / 100 } : {};
  if (baseline) console.log(`  baseline ${against.baselineDist}: CPU ${against.baselineMedianCpuMs} ms; this build / baseline ${against.cpuRatio}`);
  recordResult('captureNoModel', { runs, transcriptBytes: bytes, medianMs, minMs: round(Math.min(...times)), medianCpuMs, loadAverage: round(os.loadavg()[0]), targetMs: TARGET_MS, ...last, ...against });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
