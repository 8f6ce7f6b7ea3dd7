// Memory quality, what the model sees: for each session, the share of the user's typed messages that reach the
// extraction prompt, and the share of the prompt taken by tool output. Sessions: the real Claude Code transcripts
// in ../shared/fixtures/transcripts (when that folder exists) and the two long sessions that
// test/fixtures/transcripts/make-sessions.mjs writes (interactive and autonomous).
// Typed messages are found in the JSONL independently of the renderer (test/support/typed-messages.mjs); one
// counts as reached when the start of its first line (50 characters at most, whitespace collapsed) appears in
// the prompt.
// Target: >= 90% of typed user messages reach the prompt in every interactive session (3 or more typed messages).
// Usage: npm run build && node bench/memory-quality.mjs [--label NAME]
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

async function measure(file) {
  const typed = typedUserMessages(readFileSync(file, 'utf8'));
  const { text } = await readTranscript(file, { maxChars });
  const prompt = collapse(text);
  const reached = typed.filter((message) => prompt.includes(message.slice(0, PROBE_CHARS))).length;
  return {
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
const root = mkdtempSync(join(tmpdir(), 'recall-bench-quality-'));
try {
  files.push(writeInteractiveSession(root), writeAutonomousSession(root));
  const rows = [];
  for (const file of files) rows.push(await measure(file));
  console.log(`What the model sees (${label} renderer, transcript.maxChars ${maxChars}):`);
  for (const r of rows) {
    console.log(`  ${r.session.padEnd(48)} typed ${String(r.reached).padStart(2)}/${String(r.typedMessages).padEnd(2)} ${(100 * r.share).toFixed(0).padStart(3)}%  tool output ${(100 * r.toolOutputShare).toFixed(0).padStart(2)}% of ${r.promptChars} chars`);
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
    target: TARGET_SHARE,
    sessions: rows.map((r) => ({ ...r, share: round(r.share), toolOutputShare: round(r.toolOutputShare) })),
  });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}
