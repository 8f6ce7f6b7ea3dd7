/**
 * The write-time check of a memory's text: does it read like an instruction smuggled into the agent's
 * context rather than a note about the project? It reads meaning, not spelling: the text is normalised
 * first (normalise-for-screen.ts: compatibility forms, look-alike letters, invisible, bidirectional and
 * combining characters), encoded payloads in it (base64, hex or percent escapes) are read too, and each
 * detector looks for a structure, not a phrase. Flagged memories are quarantined: stored, never injected,
 * never returned to an agent, until the user approves them (`recall review`). Pure.
 */
import { changesAgentConfig, changesRegistry } from './detect-config-change.js';
import { carriesDataInLink, sendsData } from './detect-data-sending.js';
import { fetchesAndRuns } from './detect-fetch-and-run.js';
import { overridesInstructions } from './detect-override.js';
import { normaliseForScreen, stripDisguises } from './normalise-for-screen.js';

export type InstructionFlag =
  | 'override'
  | 'remote-script'
  | 'exfiltration'
  | 'data-link'
  | 'agent-config'
  | 'registry'
  | 'hidden-text'
  | 'control-tag';

const CONTROL_TAG =
  /<\s*\/?\s*(?:system-reminder|recall-context|system|command-(?:name|message|args)|local-command-\w+|function_calls|invoke|tool_use|tool_result|antml:\w+|user-prompt-submit-hook|task-notification)\b|<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|eot_id)\|>|\[\/?inst\]|<<\/?sys>>|(?:^|\n)\s*#{2,}\s*(?:system|instruction)s?\s*:?\s*(?:\n|$)|\n\n(?:human|assistant)\s*:/;

const DETECTORS: ReadonlyArray<[InstructionFlag, (text: string) => boolean]> = [
  ['override', overridesInstructions],
  ['remote-script', fetchesAndRuns],
  ['exfiltration', sendsData],
  ['data-link', carriesDataInLink],
  ['agent-config', changesAgentConfig],
  ['registry', changesRegistry],
  ['control-tag', (text) => CONTROL_TAG.test(text)],
];

/** The longest text the screen reads; a memory is far shorter (the store caps content at 8,000 characters). */
const MAX_SCREENED = 20_000;

/** Why `content` reads like an instruction to the agent; empty when it reads like a note. */
export function flagInstructions(content: string): InstructionFlag[] {
  const { text, concealed } = normaliseForScreen(content.slice(0, MAX_SCREENED));
  const readings = [text, ...decodedPayloads(stripDisguises(content.slice(0, MAX_SCREENED))).map((payload) => normaliseForScreen(payload).text)];
  const flags: InstructionFlag[] = DETECTORS.filter(([, detect]) => readings.some(detect)).map(([flag]) => flag);
  if (concealed) flags.push('hidden-text');
  return flags;
}

const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{24,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){6,}/g;
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2}[^%\s]{0,3}){6,}/;

/** Text hidden in the memory as base64, `\x..` escapes or percent-encoding, when it decodes to readable text. */
function decodedPayloads(content: string): string[] {
  const found: string[] = [];
  for (const m of content.matchAll(BASE64_RUN)) {
    if (!/[A-Z]/.test(m[0]) || !/[a-z]/.test(m[0])) continue; // hex, a hash or a word: not base64 worth reading
    const text = Buffer.from(m[0], 'base64').toString('utf8');
    if (readable(text)) found.push(text);
  }
  for (const m of content.matchAll(HEX_ESCAPES)) {
    found.push(m[0].replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  }
  if (PERCENT_RUN.test(content)) {
    try {
      found.push(decodeURIComponent(content));
    } catch {
      // Not well-formed percent-encoding: nothing hidden that a browser would read either.
    }
  }
  return found;
}

function readable(text: string): boolean {
  if (text.length < 12) return false;
  const printable = text.replace(/[^\x20-\x7E\n\t]/g, '').length;
  return printable / text.length > 0.9 && /[a-z]{3,}\s+\S/i.test(text);
}
