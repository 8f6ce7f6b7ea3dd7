// recall's redactSecrets and secretlint's recommended preset (@secretlint/core, the maintained JavaScript
// scanner) side by side, on the same text and the same corpus: throughput (MB/s of CPU time, median of N
// runs, over a 10 MB transcript text: the capture benchmark's events plus real transcript content), secrets
// caught (the tuning corpus and the held-out set, test/fixtures/redaction), look-alikes changed.
// A secret counts as caught by secretlint when one of its findings covers it (secretlint reports, recall
// replaces); a look-alike counts as changed when secretlint reports anything in it.
// Usage: npm run build && node bench/redaction-vs-secretlint.mjs [runs] [megabytes]
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { median } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 5);
const megabytes = Number(process.argv[3] ?? 10);
const dist = new URL('../dist/', import.meta.url);
const { redactSecrets } = await import(new URL('redact/redact-secrets.js', dist).href);
const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

async function secretlint(content) {
  const result = await lintSource({ source: { content, filePath: '/bench.txt', ext: '.txt', contentType: 'text' }, options: { config, noPhysicFilePath: true } });
  return result.messages;
}

/** Text of what a transcript's events hold: the capture benchmark's kind, and real sessions' content when the shared fixtures are there. */
function benchText(bytes) {
  const source = 'export function handler(req, res) {\n  const total = req.items.reduce((sum, item) => sum + item.cents, 0);\n  return res.json({ total });\n}\n';
  const log = '2026-01-01T00:00:00Z INFO request served in 12 ms path=/api/orders status=200\n';
  const parts = [realContent()];
  let size = parts[0].length;
  for (let k = 0; size < bytes; k += 1) {
    const part = [`Step ${k}: you MUST keep money in integer cents; check the orders handler.\n`, source.repeat(20 + (k % 40)), log.repeat(30 + (k % 90)), `token=ghp_${'a1B2c3D4e5'.repeat(4)} ${log.repeat(10)}`][k % 4];
    parts.push(part);
    size += part.length;
  }
  return parts.join('').slice(0, bytes);
}

function realContent() {
  const root = fileURLToPath(new URL('../../shared/fixtures/transcripts/', import.meta.url));
  const out = [];
  const strings = (v, key) => {
    if (typeof v === 'string') {
      if (!['id', 'tool_use_id', 'signature', 'type', 'name'].includes(key)) out.push(v);
    } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) strings(x, Array.isArray(v) ? key : k);
  };
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.jsonl')) for (const line of readFileSync(p, 'utf8').split('\n')) {
        try {
          const r = JSON.parse(line);
          const c = r?.message?.content ?? r?.content;
          if (c !== undefined) strings(c, '');
        } catch { /* not a JSON line */ }
      }
    }
  };
  try {
    walk(root);
  } catch {
    return '';
  }
  return out.join('\n');
}

function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function throughput(fn, text) {
  await fn(text); // warm-up
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const started = cpuMs();
    await fn(text);
    samples.push(cpuMs() - started);
  }
  const ms = median(samples);
  return { medianCpuMs: round(ms), mbPerS: round(text.length / 1e6 / (ms / 1000)) };
}

function readLines(file) {
  return readFileSync(new URL(`../test/fixtures/redaction/${file}`, import.meta.url), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

async function score(secrets, lookalikes) {
  let recallCaught = 0;
  let lintCaught = 0;
  for (const c of secrets) {
    const out = redactSecrets(c.text).text;
    if (c.secrets.every((s) => !out.includes(s))) recallCaught += 1;
    const messages = await secretlint(c.text);
    const covered = (s) => {
      const at = c.text.indexOf(s);
      return messages.some((m) => m.range[0] <= at + 1 && m.range[1] >= at + s.length - 1);
    };
    if (c.secrets.every(covered)) lintCaught += 1;
  }
  let recallChanged = 0;
  let lintChanged = 0;
  for (const c of lookalikes) {
    if (redactSecrets(c.text).text !== c.text) recallChanged += 1;
    if ((await secretlint(c.text)).length > 0) lintChanged += 1;
  }
  return {
    secrets: secrets.length, lookalikes: lookalikes.length,
    recall: { caught: recallCaught, lookalikesChanged: recallChanged },
    secretlint: { caught: lintCaught, lookalikesChanged: lintChanged },
  };
}

const text = benchText(megabytes * 1e6);
const speed = { textBytes: text.length, recall: await throughput((t) => redactSecrets(t), text), secretlint: await throughput((t) => secretlint(t), text) };
const corpus = {
  tuning: await score(readLines('secrets.jsonl'), readLines('lookalikes.jsonl')),
  heldOut: await score(readLines('heldout-secrets.jsonl'), readLines('heldout-lookalikes.jsonl')),
};
console.log(`Redaction on a ${(text.length / 1e6).toFixed(1)} MB transcript text, CPU time, median of ${runs}:`);
console.log(`  recall redactSecrets: ${speed.recall.mbPerS} MB/s (${speed.recall.medianCpuMs} ms); secretlint recommended preset: ${speed.secretlint.mbPerS} MB/s (${speed.secretlint.medianCpuMs} ms)`);
for (const [name, s] of Object.entries(corpus)) {
  console.log(`  ${name}: secrets caught recall ${s.recall.caught}/${s.secrets}, secretlint ${s.secretlint.caught}/${s.secrets}; look-alikes changed recall ${s.recall.lookalikesChanged}/${s.lookalikes}, secretlint ${s.secretlint.lookalikesChanged}/${s.lookalikes}`);
}
recordResult('redactionVsSecretlint', { runs, ...speed, corpus });

function round(n) {
  return Math.round(n * 10) / 10;
}
