// Characters and estimated tokens (chars / 4) before and after Endless Mode on the real transcripts
// in ../shared/fixtures/transcripts, each arm from a fresh state dir:
//   observations:     fork with observations from the Ollama-protocol double answering a compact,
//                     3B-model-sized observation (test/fixtures/endless/compact-reply.mjs);
//   reducer:          fork with --no-model: the deterministic reduction alone;
//   live rules only:  as observations, with the resume-only rules off (forkMinChars beyond any
//                     output): what the fork compressed before those rules, the PostToolUse hook's rules;
//   2k thresholds:    as observations, with minChars = readMinChars = 2,000 (fork flags): also Reads
//                     of files the session never touched again;
//   --keep-recent 0:  as observations, with the last results of each transcript compressed too.
// "compressed results" counts only the tool results that were replaced; "conversation" is every
// message of the file (message text, tool inputs, tool results, images and documents as sent);
// "what a resume loads" only the chain `claude --resume` loads (after the last compaction, side
// chains left out; see src/endless/resume-chain.ts); "file" is the JSONL on disk.
// "resumable sessions" leaves out the transcripts under subagents/: `claude --resume` resumes a main
// session, and a subagent's own conversation is not part of what its session loads.
// Then where the characters of the conversation are, before and after the default fork.
// Usage: npm run build && node bench/endless-compression.mjs
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OllamaDouble } from '../scripts/ollama-double.mjs';
import { compactObservationReply } from '../test/fixtures/endless/compact-reply.mjs';
import { recordResult } from './results.mjs';

const dist = new URL('../dist/', import.meta.url);
const { forkSession } = await import(new URL('endless/fork-session.js', dist).href);
const { requestObservation } = await import(new URL('endless/ollama-observe.js', dist).href);
const { ENDLESS_DEFAULTS } = await import(new URL('endless/endless-defaults.js', dist).href);
const { findToolResults } = await import(new URL('endless/fork-transcript.js', dist).href);
const { findSuperseded } = await import(new URL('endless/resume-rules.js', dist).href);

const fixtures = fileURLToPath(new URL('../../shared/fixtures/transcripts/', import.meta.url));
if (!existsSync(fixtures)) {
  console.log(`no real transcripts at ${fixtures}; nothing to measure`);
  process.exit(0);
}
const files = readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.jsonl')).sort().map((n) => join(fixtures, n));
const LONG = '258c7280-ae70-4798-800f-63464d01a85d';
const resumableCount = files.filter((f) => !f.includes(`${sep}subagents${sep}`)).length;
const double = new OllamaDouble({ reply: compactObservationReply });
const ollama = await double.start();
const root = mkdtempSync(join(tmpdir(), 'recall-bench-endless-'));

const arms = [
  { name: 'observations', useModel: true, thresholds: {} },
  { name: 'reducer', useModel: false, thresholds: {} },
  { name: 'live rules only', useModel: true, thresholds: { forkMinChars: Number.MAX_SAFE_INTEGER } },
  { name: 'observations, 2k thresholds', useModel: true, thresholds: { minChars: 2000, readMinChars: 2000 } },
  { name: 'observations, --keep-recent 0', useModel: true, thresholds: {}, keepRecent: 0 },
];
const figures = {};
let where = null;
try {
  for (const arm of arms) {
    const total = zero();
    const session = zero();
    const resumable = zero();
    const perFile = {};
    const rows = [];
    for (const [i, file] of files.entries()) {
      const work = join(root, `${arm.name.replace(/\W+/g, '-')}-${i}`);
      const copy = join(work, basename(file));
      mkdirSync(work, { recursive: true });
      copyFileSync(file, copy);
      const s = await forkSession(copy, `0e0e0e0e-0000-4000-8000-${String(i).padStart(12, '0')}`, {
        home: join(work, 'home'),
        settings: { ...ENDLESS_DEFAULTS, denylist: [], enabled: true, ...arm.thresholds, ollama: { host: ollama.url, model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 10_000 } },
        observe: requestObservation, now: () => Date.now(), logger: { log() {} }, keepRecent: arm.keepRecent ?? ENDLESS_DEFAULTS.keepRecent, useModel: arm.useModel,
      });
      const row = { results: s.results, compressed: s.compressed, replacedBefore: s.replaced.before, replacedAfter: s.replaced.after, resultsBefore: s.before.toolResultChars, resultsAfter: s.after.toolResultChars, conversationBefore: s.before.chars, conversationAfter: s.after.chars, resumeBefore: s.resume.before.chars, resumeAfter: s.resume.after.chars, fileBefore: s.before.fileBytes, fileAfter: s.after.fileBytes };
      for (const key of Object.keys(total)) total[key] += row[key];
      // The long session with its subagents' transcripts.
      if (file.includes(LONG)) for (const key of Object.keys(session)) session[key] += row[key];
      if (!file.includes(`${sep}subagents${sep}`)) for (const key of Object.keys(resumable)) resumable[key] += row[key];
      if (s.compressed > 0) perFile[relative(fixtures, file)] = summarize(row);
      rows.push({ input: copy, output: s.outputPath });
    }
    figures[arm.name] = { total: summarize(total), longSession: summarize(session), resumable: summarize(resumable), perFile };
    if (arm.name === 'observations') where = breakdown(rows);
  }
} finally {
  await ollama.close();
  rmSync(root, { recursive: true, force: true });
}

console.log(`Endless Mode on ${files.length} real transcripts (tokens estimated as chars / 4; keepRecent ${ENDLESS_DEFAULTS.keepRecent}, minChars ${ENDLESS_DEFAULTS.minChars}, readMinChars ${ENDLESS_DEFAULTS.readMinChars}, forkMinChars ${ENDLESS_DEFAULTS.forkMinChars})`);
for (const [name, { total, longSession, resumable, perFile }] of Object.entries(figures)) {
  console.log(`\n${name}: ${total.compressed} of ${total.results} tool results compressed`);
  line('compressed results', total.replaced);
  line('all tool results', total.toolResults);
  line('conversation', total.conversation);
  line('file (bytes)', total.file);
  line('long session + subagents, conversation', longSession.conversation);
  line(`resumable sessions (${resumableCount}), conversation`, resumable.conversation);
  line(`resumable sessions (${resumableCount}), what a resume loads`, resumable.onResume);
  line('long session, what a resume loads', longSession.onResume);
  for (const [file, f] of Object.entries(perFile)) console.log(`    ${file}: compressed ${pct(f.replaced)}, conversation ${pct(f.conversation)} (${f.compressed} results)`);
}
console.log('\nwhere the conversation characters are, before -> after the default fork (observations), all transcripts:');
for (const [label, [before, after]] of Object.entries(where)) {
  console.log(`  ${label.padEnd(44)} ${before.toLocaleString('en-US').padStart(9)} -> ${after.toLocaleString('en-US').padStart(9)}  (${((100 * after) / figures.observations.total.conversation.afterChars).toFixed(1)}% of what is left)`);
}
recordResult('endlessCompression', {
  transcripts: files.length,
  resumableSessions: resumableCount,
  arms: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, { ...v.total, longSession: v.longSession, resumable: v.resumable }])),
  where,
});

function zero() {
  return { results: 0, compressed: 0, replacedBefore: 0, replacedAfter: 0, resultsBefore: 0, resultsAfter: 0, conversationBefore: 0, conversationAfter: 0, resumeBefore: 0, resumeAfter: 0, fileBefore: 0, fileAfter: 0 };
}
function pair(before, after) {
  return { beforeChars: before, afterChars: after, beforeTokens: Math.round(before / 4), afterTokens: Math.round(after / 4), reduction: before === 0 ? 0 : Math.round((1 - after / before) * 1000) / 10 };
}
function summarize(r) {
  return { results: r.results, compressed: r.compressed, replaced: pair(r.replacedBefore, r.replacedAfter), toolResults: pair(r.resultsBefore, r.resultsAfter), conversation: pair(r.conversationBefore, r.conversationAfter), onResume: pair(r.resumeBefore, r.resumeAfter), file: pair(r.fileBefore, r.fileAfter) };
}
function line(label, p) {
  const tokens = label.includes('bytes') ? '' : ` (~${p.beforeTokens.toLocaleString('en-US')} tok)`;
  const after = label.includes('bytes') ? '' : ` (~${p.afterTokens.toLocaleString('en-US')} tok)`;
  console.log(`  ${label.padEnd(20)} ${p.beforeChars.toLocaleString('en-US')}${tokens} -> ${p.afterChars.toLocaleString('en-US')}${after}  -${p.reduction}%`);
}
function pct(p) {
  return `-${p.reduction}%`;
}

/**
 * The conversation's characters by kind, before and after the fork: message text, tool inputs,
 * compressed results, and each reason a result stayed whole (under the default thresholds).
 */
function breakdown(rows) {
  const out = {};
  const add = (label, before, after) => {
    out[label] ??= [0, 0];
    out[label][0] += before;
    out[label][1] += after;
  };
  const d = ENDLESS_DEFAULTS;
  for (const { input, output } of rows) {
    const read = (f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    const [a, b] = [read(input), read(output)];
    const refs = findToolResults(a);
    const after = new Map(findToolResults(b).map((r) => [r.toolUseId, r.text]));
    const superseded = findSuperseded(refs);
    refs.forEach((ref, i) => {
      const now = after.get(ref.toolUseId) ?? '';
      const n = ref.text.length;
      let label;
      if (now.startsWith('[recall: ')) label = 'results compressed';
      else if (i >= refs.length - d.keepRecent) label = `results kept: the last ${d.keepRecent}`;
      else if (ref.toolName === 'Read' && !superseded.has(ref.toolUseId) && n >= d.forkMinChars) label = 'results kept: Read, file not touched again';
      else if (['Write', 'Edit', 'MultiEdit'].includes(ref.toolName) && n >= d.forkMinChars) label = 'results kept: Write/Edit echo, the latest';
      else if (n < d.forkMinChars) label = `results kept: under ${d.forkMinChars} chars`;
      else label = 'results kept: replacement would not halve it, or other';
      add(label, n, now.length);
    });
    for (const [records, side] of [[a, 0], [b, 1]]) {
      for (const r of records) {
        if (r.type !== 'user' && r.type !== 'assistant') continue;
        const content = r.message?.content;
        if (typeof content === 'string') add(`${r.type} message text`, side === 0 ? content.length : 0, side === 1 ? content.length : 0);
        for (const block of Array.isArray(content) ? content : []) {
          let label = null;
          let n = 0;
          if (block?.type === 'text' && typeof block.text === 'string') [label, n] = [`${r.type} message text`, block.text.length];
          else if (block?.type === 'tool_use') [label, n] = [`tool inputs: ${['Write', 'Edit', 'MultiEdit'].includes(block.name) ? 'Write/Edit' : 'other tools'}`, JSON.stringify(block.input ?? {}).length];
          if (label !== null) add(label, side === 0 ? n : 0, side === 1 ? n : 0);
        }
      }
    }
  }
  return Object.fromEntries(Object.entries(out).sort((x, y) => y[1][1] - x[1][1]));
}
