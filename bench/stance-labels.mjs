// How well recall labels what a user's message does (agrees, corrects the assistant, changes a decision, asks),
// measured against sets labelled by hand from real sessions (public Claude Code transcripts and exported
// session logs; each line names its source):
// - test/fixtures/stance/labelled-messages.jsonl: the development set (English, Chinese and a few other
//   languages); the reader's cues were adjusted while looking at its errors, so its figures are optimistic;
// - test/fixtures/stance/held-out-messages.jsonl: labelled before the reader was run on it, never tuned on.
// Precision and recall per label for recall's reader (src/transcript/read-stance.ts) and, as the baseline, the
// first-word rules it replaced.
// Usage: npm run build && node bench/stance-labels.mjs
import { readFileSync } from 'node:fs';
import { recordResult } from './results.mjs';

const dist = new URL('../dist/', import.meta.url);
const { readStance } = await import(new URL('transcript/read-stance.js', dist).href);
const { splitPasted } = await import(new URL('transcript/split-pasted.js', dist).href);

const LABELS = ['agrees', 'corrects', 'decides', 'asks'];
const load = (name) =>
  readFileSync(new URL(`../test/fixtures/stance/${name}`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

// The rules before issue 32: a message's first word, and only for agreement and correction.
const OLD_AGREES = /^(?:yes|yep|yeah|great|perfect|thanks|thank you|lgtm|looks good|sounds good|works|nice|exactly|correct|good|ok(?:ay)?|ship it|approved?|confirmed)\b/i;
const OLD_CORRECTS = /^(?:no\b|nope|don'?t|do not|never|stop|wrong|not like that|actually|instead|revert|undo|why did you|that'?s not|please don'?t)/i;
function oldStance(text, reply) {
  if (!reply) return 'none';
  const t = text.trim();
  if (OLD_CORRECTS.test(t)) return 'corrects';
  if (OLD_AGREES.test(t) && t.length <= 200) return 'agrees';
  return 'none';
}
const newStance = (text, reply) => readStance(splitPasted(text).typed, { reply }).stance ?? 'none';

function score(set, read) {
  const byLabel = {};
  let right = 0;
  for (const label of LABELS) byLabel[label] = { truePositives: 0, predicted: 0, actual: 0 };
  for (const item of set) {
    const got = read(item.text, item.reply);
    if (got === item.label) right += 1;
    if (byLabel[got]) byLabel[got].predicted += 1;
    if (byLabel[item.label]) byLabel[item.label].actual += 1;
    if (got === item.label && byLabel[got]) byLabel[got].truePositives += 1;
  }
  const out = {};
  for (const [label, c] of Object.entries(byLabel)) {
    out[label] = {
      precision: c.predicted === 0 ? null : round(c.truePositives / c.predicted),
      recall: c.actual === 0 ? null : round(c.truePositives / c.actual),
      labelled: c.actual,
      predicted: c.predicted,
    };
  }
  return { accuracy: round(right / set.length), byLabel: out };
}

function round(n) {
  return Math.round(n * 1000) / 1000;
}

function report(name, set) {
  const recall = score(set, newStance);
  const baseline = score(set, oldStance);
  const chinese = set.filter((i) => /\p{Script=Han}/u.test(i.text)).length;
  console.log(`${name}: ${set.length} hand-labelled user messages from real sessions (${chinese} in Chinese)`);
  console.log('  label      precision  recall   (first-word baseline: precision, recall)   labelled');
  for (const label of LABELS) {
    const r = recall.byLabel[label];
    const b = baseline.byLabel[label];
    const f = (x) => (x === null ? '  n/a' : `${(100 * x).toFixed(0).padStart(4)}%`);
    console.log(`  ${label.padEnd(9)} ${f(r.precision)}     ${f(r.recall)}    (${f(b.precision)}, ${f(b.recall)})                       ${r.labelled}`);
  }
  console.log(`  all five classes (with "none"): ${(100 * recall.accuracy).toFixed(0)}% right; baseline ${(100 * baseline.accuracy).toFixed(0)}%`);
  return { messages: set.length, chineseMessages: chinese, recall, firstWordBaseline: baseline };
}

const development = report('Development set (cues adjusted on it)', load('labelled-messages.jsonl'));
const heldOut = report('Held-out set (labelled first, never tuned on)', load('held-out-messages.jsonl'));
recordResult('stanceLabels', { messages: development.messages + heldOut.messages, development, heldOut });
