import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildExtractionPrompt } from '../../extract/extract-memories.js';
import { redactSecrets } from '../../redact/redact-secrets.js';
import { composePrompt } from '../../transcript/prompt-composition.js';
import type { PromptComposition } from '../../transcript/prompt-composition.js';
import { readTranscript } from '../../transcript/read-transcript.js';
import { checkTranscriptFile } from '../../transcript/check-transcript-file.js';
import { sessionFilesHelp } from '../session-files-help.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { out, renderTable } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';

interface PromptFlags {
  maxChars?: number;
  json?: boolean;
  stats?: boolean;
}

export function registerPrompt(program: Command): void {
  program
    .command('prompt <transcript>')
    .description('print exactly what the extraction model would receive for a session, and what it is made of; calls no model')
    .option('--max-chars <n>', 'transcript budget (default: transcript.maxChars)', parsePositiveInt('--max-chars'))
    .option('--stats', 'print only the composition, not the prompt')
    .option('--json', 'print the prompt and its composition as JSON')
    .addHelpText('after', sessionFilesHelp())
    .action(async (transcript: string, opts: PromptFlags) => {
      const path = resolve(transcript);
      await checkTranscriptFile(path);
      await withRuntime(async (runtime) => {
        const { config } = runtime;
        const read = await readTranscript(path, { maxChars: opts.maxChars ?? config.transcript.maxChars, maxLineBytes: config.transcript.maxLineBytes });
        // The same pass capture makes before the model sees the text.
        const text = redactSecrets(read.text).text;
        const built = await buildExtractionPrompt(text, { minNumCtx: config.ollama.numCtx, maxMemories: config.extract.maxMemories });
        const composition = composePrompt(read.stats, built.system.length + built.prompt.length, text.length);
        const tooShort = text.trim().length < config.transcript.minChars;
        if (opts.json) {
          out.json({ transcript: path, system: built.system, prompt: built.prompt, numCtx: built.numCtx, wouldSkip: tooShort, composition });
          return;
        }
        if (!opts.stats) {
          out.line('=== system ===');
          out.line(safeLines(built.system));
          out.line('=== prompt ===');
          out.line(safeLines(built.prompt));
          out.line('=== composition ===');
        }
        out.line(renderComposition(composition, built.numCtx));
        if (tooShort) out.line(`(capture would skip this session: its text is under transcript.minChars, ${config.transcript.minChars} characters)`);
      });
    });
}

/** Session text is untrusted: every line made safe for the terminal, the line breaks kept. */
function safeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => terminalSafe(line))
    .join('\n');
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function renderComposition(c: PromptComposition, numCtx: number): string {
  const rows = c.parts.map((p) => [p.part, String(p.chars), percent(p.share)]);
  const conclusion = c.conclusion === null ? 'none (the assistant said nothing)' : `${c.conclusion.keptChars} of ${c.conclusion.fullChars} chars kept (${percent(c.conclusion.keptShare)})`;
  return [
    renderTable(['part', 'chars', 'share'], rows),
    `prompt ${c.promptChars} chars (num_ctx ${numCtx}); transcript ${c.transcriptChars} chars`,
    `typed messages shown: ${c.typedMessagesShown} of ${c.typedMessages}; events shown: ${c.entriesShown} of ${c.entries}; left-out markers: ${c.markers}`,
    `the assistant's last words: ${conclusion}`,
  ].join('\n');
}
