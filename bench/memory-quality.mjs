// Memory quality, what the model sees: for each session, the share of the user's typed messages that reach the
// extraction prompt, and the share of the prompt taken by tool output. Sessions: the real Claude Code transcripts
// in ../shared/fixtures/transcripts (when that folder exists) and the two long sessions that
// test/fixtures/transcripts/make-sessions.mjs writes (interactive and autonomous).
// Typed messages are found in the JSONL independently of the renderer (test/support/typed-messages.mjs); one
// counts as reached when the start of its first line (50 characters at most, whitespace collapsed) appears in
// the prompt.
// Target: >= 90% of typed user messages reach the prompt in every interactive session (3 or more typed messages).
// Also the prompt's composition per session (issue 32): shares of the user's words, the assistant's, tools, the
// labels recall adds and the markers of left-out events; how many markers and outcome labels it holds; and how
// much of the session's last assistant message (its conclusion, read from the JSONL independently of the
// renderer) the prompt keeps. With --baseline <folder of another build's dist/>, the same figures for that build
// come beside them (for example the code before issue 32: `git archive <commit> | tar -x -C /tmp/base`, build it).
// --extra <folder>: also measure the JSONL sessions in that folder (not recorded when they are absent).
// Usage: npm run build && node bench/memory-quality.mjs [--label NAME] [--baseline DIST] [--extra DIR]
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typedUserMessages } from '../test/support/typed-messages.mjs';
import { recordResult } from './results.mjs';

const TARGET_SHARE = 0.9;
const PROBE_CHARS = 50;
const dist = new URL('../dist/', import.meta.url);
const { readTranscript } = await import(new URL('transcript/read-transcript.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);
const { writeInteractiveSession, writeAutonomousSession } = await import(new URL('../test/fixtures/transcripts/make-sessions.mjs', import.meta.url).href);
const { maxChars } = configSchema.parse({}).transcript;
const labelArg = process.argv.indexOf('--label');
const label = labelArg === -1 ? 'budgeted' : process.argv[labelArg + 1];
const baselineArg = process.argv.indexOf('--baseline');
const baseline = baselineArg === -1 ? undefined : await import(new URL('transcript/read-transcript.js', `file://${process.argv[baselineArg + 1].replace(/\/?$/, '/')}`).href);

const collapse = (text) => text.replace(/\s+/g, ' ').trim();

/** Characters of tool output in a prompt: result lines and their indented continuations (old and new layouts). */
function toolOutputChars(prompt) {
  let chars = 0;
  let inTool = false;
  for (const line of prompt.split('\n')) {
    if (/^ {2}\[(result|error|tool output)\b/.test(line)) inTool = true;
    else if (!/^ {4}/.test(line)) inTool = false;
    if (inTool) chars += line.length + 1;
  }
  return chars;
}

/** The session's last assistant text, read from the JSONL without recall's parser. */
function lastAssistantText(jsonl) {
  let last = '';
  for (const line of jsonl.split('\n')) {
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record?.type !== 'assistant' || record.isSidechain) continue;
    const content = record.message?.content;
    const texts = Array.isArray(content) ? content.filter((b) => b?.type === 'text').map((b) => b.text) : typeof content === 'string' ? [content] : [];
    if (texts.join('').trim() !== '') last = texts.join('\n');
  }
  return last;
}

/** The share of `conclusion`'s characters whose line (20+ characters) appears in the prompt. */
function keptShare(conclusion, prompt) {
  const lines = conclusion.split('\n').map(collapse).filter((l) => l.length >= 20);
  const total = lines.reduce((n, l) => n + l.length, 0);
  if (total === 0) return 1;
  return lines.filter((l) => prompt.includes(l)).reduce((n, l) => n + l.length, 0) / total;
}

/** Figures any build's prompt text gives: markers, outcome labels, stance labels, the conclusion kept. */
function textFigures(text, conclusion) {
  const markers = text.match(/^\[… [\d,]+ events? left out …\]$/gm) ?? [];
  return {
    markers: markers.length,
    markerChars: markers.reduce((n, m) => n + m.length + 1, 0),
    failedLabels: text.match(/→ FAILED/g)?.length ?? 0,
    revertedOrAbandonedLabels: text.match(/REVERTED|ABANDONED/g)?.length ?? 0,
    stanceLabels: text.match(/^User \((?:[^)\n]*, )?(?:agrees|corrects the assistant|changes a decision|asks)\)/gm)?.length ?? 0,
    conclusionKeptShare: round(keptShare(conclusion, collapse(text))),
  };
}

async function measure(file) {
  const jsonl = readFileSync(file, 'utf8');
  const typed = typedUserMessages(jsonl);
  const { text, stats } = await readTranscript(file, { maxChars });
  const prompt = collapse(text);
  const reached = typed.filter((message) => prompt.includes(message.slice(0, PROBE_CHARS))).length;
  const conclusion = lastAssistantText(jsonl);
  const c = stats.chars;
  const share = (n) => round(text.length === 0 ? 0 : n / text.length);
  const composition = {
    userShare: share(c.user),
    pastedShare: share(c.pasted),
    assistantShare: share(c.assistant),
    toolShare: share(c.toolCalls + c.toolOutput),
    summaryShare: share(c.summary),
    labelShare: share(c.labels),
    markerShare: share(c.markers),
    ...textFigures(text, conclusion),
  };
  const before = baseline === undefined ? undefined : textFigures((await baseline.readTranscript(file, { maxChars })).text, conclusion);
  return {
    composition,
    ...(before === undefined ? {} : { baseline: before }),
    session: basename(file),
    interactive: typed.length >= 3,
    typedMessages: typed.length,
    reached,
    share: typed.length === 0 ? 1 : reached / typed.length,
    promptChars: text.length,
    toolOutputShare: text.length === 0 ? 0 : toolOutputChars(text) / text.length,
  };
}

const shared = fileURLToPath(new URL('../../shared/fixtures/transcripts/', import.meta.url));
const files = [];
if (existsSync(shared)) {
  for (const folder of readdirSync(shared, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const name of readdirSync(join(shared, folder.name))) if (name.endsWith('.jsonl')) files.push(join(shared, folder.name, name));
  }
}
const extraArg = process.argv.indexOf('--extra');
if (extraArg !== -1) for (const name of readdirSync(process.argv[extraArg + 1])) if (name.endsWith('.jsonl')) files.push(join(process.argv[extraArg + 1], name));
const root = mkdtempSync(join(tmpdir(), 'recall-bench-quality-'));
try {
  files.push(writeInteractiveSession(root), writeAutonomousSession(root));
  const rows = [];
  for (const file of files) rows.push(await measure(file));
  console.log(`What the model sees (${label} renderer, transcript.maxChars ${maxChars}):`);
  for (const r of rows) {
    console.log(`  ${r.session.padEnd(48)} typed ${String(r.reached).padStart(2)}/${String(r.typedMessages).padEnd(2)} ${(100 * r.share).toFixed(0).padStart(3)}%  tool output ${(100 * r.toolOutputShare).toFixed(0).padStart(2)}% of ${r.promptChars} chars`);
    const k = r.composition;
    const p = (x) => `${(100 * x).toFixed(0)}%`;
    console.log(`      user ${p(k.userShare)}, assistant ${p(k.assistantShare)}, tool ${p(k.toolShare)}, summary ${p(k.summaryShare)}, labels ${p(k.labelShare)}, markers ${p(k.markerShare)} (${k.markers}); FAILED labels ${k.failedLabels}, REVERTED/ABANDONED ${k.revertedOrAbandonedLabels}, stance labels ${k.stanceLabels}; conclusion kept ${p(k.conclusionKeptShare)}`);
    if (r.baseline) console.log(`      baseline: markers ${r.baseline.markers} (${r.baseline.markerChars} chars); FAILED labels ${r.baseline.failedLabels}, REVERTED/ABANDONED ${r.baseline.revertedOrAbandonedLabels}, stance labels ${r.baseline.stanceLabels}; conclusion kept ${p(r.baseline.conclusionKeptShare)}`);
  }
  const interactive = rows.filter((r) => r.interactive);
  const worst = interactive.length === 0 ? 1 : Math.min(...interactive.map((r) => r.share));
  const toolShare = Math.max(...rows.map((r) => r.toolOutputShare));
  console.log(`  worst interactive session: ${(100 * worst).toFixed(0)}% of typed messages reached (target >= ${100 * TARGET_SHARE}%); largest tool-output share ${(100 * toolShare).toFixed(0)}%`);
  recordResult(label === 'budgeted' ? 'promptQuality' : `promptQuality_${label}`, {
    renderer: label,
    maxChars,
    worstInteractiveShare: round(worst),
    maxToolOutputShare: round(toolShare),
    worstConclusionKeptShare: round(Math.min(...rows.map((r) => r.composition.conclusionKeptShare))),
    ...(baseline === undefined ? {} : { baselineWorstConclusionKeptShare: round(Math.min(...rows.map((r) => r.baseline.conclusionKeptShare))) }),
    target: TARGET_SHARE,
    sessions: rows.map((r) => ({ ...r, share: round(r.share), toolOutputShare: round(r.toolOutputShare) })),
  });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}
