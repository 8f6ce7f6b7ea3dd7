import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RecallError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/core/log.js';
import { compressToolOutput, type CompressDeps } from '../../../src/endless/compress-tool-output.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { entryPaths, readRecord } from '../../../src/endless/endless-store.js';
import type { Observation } from '../../../src/endless/observation.js';
import type { ObserveFn } from '../../../src/endless/ollama-observe.js';
import type { PostToolUsePayload } from '../../../src/endless/post-tool-use-input.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

const settings: EndlessSettings = {
  enabled: true, minChars: 1000, readMinChars: 5000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 10_000 },
};

const observation: Observation = {
  type: 'bugfix', title: 'npm test: 1 of 40 suites fails', subtitle: 'test/x.test.ts', narrative: 'One assertion fails.',
  facts: ['test/x.test.ts:12 expected 3 to be 4'], concepts: ['vitest'], files: ['test/x.test.ts'],
};

const bigLog = Array.from({ length: 300 }, (_, i) => `PASS test/unit/file-${'abcdefghij'[i % 10]}${'klmno'[i % 5]}.test.ts`).join('\n') + '\nFAIL test/x.test.ts\n  expected 3 to be 4';

function payload(overrides: Partial<PostToolUsePayload> = {}): PostToolUsePayload {
  return {
    sessionId: 'sess-1', toolUseId: 'toolu_01', toolName: 'Bash', toolInput: { command: 'npm test' },
    toolResponse: { stdout: bigLog, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    ...overrides,
  };
}

function deps(home: string, observe: ObserveFn, extra: Partial<CompressDeps> = {}): CompressDeps & { spawned: string[] } {
  const spawned: string[] = [];
  return {
    home, now: () => Date.now(), deadlineAt: Date.now() + 30_000, observe, logger: silentLogger,
    spawnCompleter: async (s, t) => {
      spawned.push(`${s}/${t}`);
      return true;
    },
    spawned, ...extra,
  };
}

type Answer = { hookSpecificOutput: { hookEventName: string; updatedToolOutput: Record<string, unknown>; updatedMCPToolOutput?: unknown } };

describe('compressToolOutput', () => {
  it('answers the observation in the Bash output shape, ending with the pointer to the saved full output', async () => {
    const home = tempDir();
    const answer = (await compressToolOutput(payload(), settings, deps(home, async () => observation))) as Answer;
    const updated = answer.hookSpecificOutput.updatedToolOutput;
    expect(answer.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    expect(Object.keys(updated).sort()).toEqual(['interrupted', 'isImage', 'noOutputExpected', 'stderr', 'stdout']);
    expect(updated.stdout).toContain('## npm test: 1 of 40 suites fails');
    const paths = entryPaths(home, 'sess-1', 'toolu_01');
    expect(String(updated.stdout).split('\n').at(-1)).toMatch(new RegExp(`^Full output: ${paths.text} \\(\\d[\\d,]* chars, 302 lines; read it with the Read tool, offset/limit\\)$`));
    expect(readFileSync(paths.text, 'utf8')).toBe(bigLog);
    expect(statSync(paths.text).mode & 0o777).toBe(0o600);
    expect(answer.hookSpecificOutput.updatedMCPToolOutput).toBeUndefined();
  });

  it('saves the full output before it asks the model', async () => {
    const home = tempDir();
    let savedFirst = false;
    await compressToolOutput(payload(), settings, deps(home, async () => {
      savedFirst = existsSync(entryPaths(home, 'sess-1', 'toolu_01').text);
      return observation;
    }));
    expect(savedFirst).toBe(true);
  });

  it('stores the observation with the original and compressed sizes, keyed by session and tool_use_id', async () => {
    const home = tempDir();
    await compressToolOutput(payload(), settings, deps(home, async () => observation));
    const record = readRecord(entryPaths(home, 'sess-1', 'toolu_01').record);
    expect(record).toMatchObject({ sessionId: 'sess-1', toolUseId: 'toolu_01', toolName: 'Bash', answer: 'observation', originalChars: bigLog.length, observation, model: 'llama3.2:3b', attempts: 1, lastError: null });
    expect(record!.compressedChars).toBeLessThan(bigLog.length / 4);
  });

  it('answers the deterministic reduction and starts the background completion when the model fails', async () => {
    const home = tempDir();
    const d = deps(home, async () => {
      throw new RecallError('LLM_UNAVAILABLE', 'Cannot reach Ollama');
    });
    const answer = (await compressToolOutput(payload(), settings, d)) as Answer;
    const stdout = String(answer.hookSpecificOutput.updatedToolOutput.stdout);
    expect(stdout).toMatch(/^\[recall: Bash output of [\d,]+ chars, reduced/);
    expect(stdout).toContain('FAIL test/x.test.ts');
    expect(d.spawned).toEqual(['sess-1/toolu_01']);
    expect(readRecord(entryPaths(home, 'sess-1', 'toolu_01').record)).toMatchObject({ answer: 'reduction', observation: null, lastError: 'LLM_UNAVAILABLE: Cannot reach Ollama' });
  });

  it('does not call the model at all once the deadline has passed', async () => {
    const home = tempDir();
    let called = false;
    const d = deps(home, async () => {
      called = true;
      return observation;
    }, { deadlineAt: Date.now() - 1 });
    const answer = (await compressToolOutput(payload(), settings, d)) as Answer;
    expect(called).toBe(false);
    expect(String(answer.hookSpecificOutput.updatedToolOutput.stdout)).toContain('reduced');
    expect(d.spawned).toHaveLength(1);
  });

  it('hands the model only the time left before the deadline', async () => {
    const home = tempDir();
    let timeoutMs = 0;
    await compressToolOutput(payload(), settings, deps(home, async (request) => {
      timeoutMs = request.timeoutMs;
      return observation;
    }, { deadlineAt: Date.now() + 2_000 }));
    expect(timeoutMs).toBeGreaterThan(1_000);
    expect(timeoutMs).toBeLessThanOrEqual(2_000);
  });

  it('does not retry in the background when the model is missing or none is configured', async () => {
    const missing = deps(tempDir(), async () => {
      throw new RecallError('LLM_MODEL_MISSING', 'no model');
    });
    await compressToolOutput(payload(), settings, missing);
    expect(missing.spawned).toEqual([]);
    const none = deps(tempDir(), async () => observation);
    await compressToolOutput(payload(), { ...settings, ollama: { ...settings.ollama, model: null } }, none);
    expect(none.spawned).toEqual([]);
  });

  it('answers {} when neither the observation nor the reduction saves enough', async () => {
    const home = tempDir();
    const dense = Array.from({ length: 30 }, (_, i) => `${i}: ${'abcdefghijklmnopqrstuvwxyz'.slice(i % 26)}${'0123456789'.repeat(2)}`).join('\n');
    const answer = await compressToolOutput(payload({ toolResponse: { stdout: dense, stderr: '', interrupted: false, isImage: false } }), { ...settings, minChars: 100 }, deps(home, async () => ({ ...observation, narrative: 'n'.repeat(5000) })));
    expect(answer).toEqual({});
    expect(readRecord(entryPaths(home, 'sess-1', 'toolu_01').record)).toMatchObject({ answer: 'none', compressedChars: null });
  });

  it('answers {} and saves nothing for outputs it may not touch', async () => {
    const home = tempDir();
    const observe = async () => observation;
    expect(await compressToolOutput(payload({ toolName: 'Edit', toolResponse: { filePath: '/a', oldString: 'x'.repeat(9000) } }), settings, deps(home, observe))).toEqual({});
    expect(await compressToolOutput(payload({ toolResponse: { stdout: 'short', stderr: '' } }), settings, deps(home, observe))).toEqual({});
    expect(await compressToolOutput(payload({ toolResponse: 'x'.repeat(9000) }), settings, deps(home, observe))).toEqual({});
    expect(await compressToolOutput(payload({ toolName: 'Unknown' }), settings, deps(home, observe))).toEqual({});
    expect(existsSync(entryPaths(home, 'sess-1', 'toolu_01').dir)).toBe(false);
  });

  it('leaves alone a call that reads an output recall saved, and a Read of an explicit range', async () => {
    const home = tempDir();
    const observe = async () => observation;
    const saved = entryPaths(home, 'sess-0', 'toolu_00').text;
    expect(await compressToolOutput(payload({ toolInput: { command: `cat ${saved}` } }), settings, deps(home, observe))).toEqual({});
    const content = 'x'.repeat(9000);
    const read = { type: 'text', file: { filePath: '/p/a.ts', content, numLines: 1, startLine: 100, totalLines: 900 } };
    expect(await compressToolOutput(payload({ toolName: 'Read', toolInput: { file_path: '/p/a.ts', offset: 100, limit: 800 }, toolResponse: read }), settings, deps(home, observe))).toEqual({});
  });

  it('answers MCP tools through both updatedToolOutput and updatedMCPToolOutput, in their own form', async () => {
    const home = tempDir();
    const response = [{ type: 'text', text: bigLog }];
    const answer = (await compressToolOutput(payload({ toolName: 'mcp__ci__logs', toolResponse: response }), settings, deps(home, async () => observation))) as Answer;
    const updated = answer.hookSpecificOutput.updatedToolOutput as unknown as Array<{ type: string; text: string }>;
    expect(updated).toHaveLength(1);
    expect(updated[0]!.type).toBe('text');
    expect(updated[0]!.text).toContain('## npm test');
    expect(answer.hookSpecificOutput.updatedMCPToolOutput).toEqual(updated);
  });

  it('answers Read results in the Read shape', async () => {
    const home = tempDir();
    const content = Array.from({ length: 400 }, (_, i) => `  const value${i} = compute(${i});`).join('\n');
    const response = { type: 'text', file: { filePath: '/p/big.ts', content, numLines: 400, startLine: 1, totalLines: 400 } };
    const answer = (await compressToolOutput(payload({ toolName: 'Read', toolResponse: response }), settings, deps(home, async () => observation))) as Answer;
    const updated = answer.hookSpecificOutput.updatedToolOutput as { type: string; file: Record<string, unknown> };
    expect(updated.type).toBe('text');
    expect(updated.file).toMatchObject({ filePath: '/p/big.ts', startLine: 1, totalLines: 400 });
    expect(String(updated.file.content)).toContain('## npm test');
    expect(updated.file.numLines).toBe(String(updated.file.content).split('\n').length);
  });
});

describe('compressToolOutput for Codex (answerStyle block-reason)', () => {
  /** What Codex 0.171 sends a PostToolUse hook for its shell tool: tool_name Bash, the output as plain text. */
  const codexPayload = payload({ toolUseId: 'call_1', toolInput: { command: 'npm test' }, toolResponse: bigLog });

  it('answers {decision: block, reason: <observation>}, the form Codex sends to the model in place of the output', async () => {
    const home = tempDir();
    const answer = (await compressToolOutput(codexPayload, settings, deps(home, async () => observation, { answerStyle: 'block-reason' }))) as { decision: string; reason: string };
    expect(Object.keys(answer).sort()).toEqual(['decision', 'reason']);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('## npm test: 1 of 40 suites fails');
    expect(answer.reason.length).toBeLessThan(bigLog.length / 4);
    expect(readFileSync(entryPaths(home, 'sess-1', 'call_1').text, 'utf8')).toBe(bigLog);
  });

  it('leaves a plain-text Bash output alone in the Claude Code style, which would drop a string answer', async () => {
    const home = tempDir();
    expect(await compressToolOutput(codexPayload, settings, deps(home, async () => observation))).toEqual({});
  });

  it('answers nothing for a small output', async () => {
    const home = tempDir();
    expect(await compressToolOutput({ ...codexPayload, toolResponse: 'ok\n' }, settings, deps(home, async () => observation, { answerStyle: 'block-reason' }))).toEqual({});
  });
});

describe('compressToolOutput for Gemini CLI (answerStyle block-reason)', () => {
  it("judges and replaces the llmContent Gemini's AfterTool payload carries", async () => {
    const home = tempDir();
    const gemini = payload({ toolName: 'run_shell_command', toolUseId: 'g1', toolInput: { command: 'npm test' }, toolResponse: { llmContent: bigLog, returnDisplay: bigLog } });
    const answer = (await compressToolOutput(gemini, settings, deps(home, async () => observation, { answerStyle: 'block-reason' }))) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('## npm test: 1 of 40 suites fails');
  });
});

describe('compressToolOutput for Qwen Code (answerStyle stop-reason)', () => {
  /** What Qwen Code 0.24.4 sends: Gemini's { llmContent, returnDisplay }, with a tool_use_id of its own. */
  const qwen = payload({ toolName: 'run_shell_command', toolUseId: 'toolu_1', toolInput: { command: 'npm test' }, toolResponse: { llmContent: bigLog, returnDisplay: bigLog } });

  it('answers {continue: false, stopReason: <observation>}, which Qwen Code sends in place of the output', async () => {
    const home = tempDir();
    const answer = (await compressToolOutput(qwen, settings, deps(home, async () => observation, { answerStyle: 'stop-reason' }))) as { continue: boolean; stopReason: string };
    expect(Object.keys(answer).sort()).toEqual(['continue', 'stopReason']);
    expect(answer.continue).toBe(false);
    expect(answer.stopReason).toContain('## npm test: 1 of 40 suites fails');
    expect(answer.stopReason.length).toBeLessThan(bigLog.length / 4);
  });

  it('answers nothing for a small output', async () => {
    const home = tempDir();
    const small = { ...qwen, toolResponse: { llmContent: 'ok\n', returnDisplay: 'ok\n' } };
    expect(await compressToolOutput(small, settings, deps(home, async () => observation, { answerStyle: 'stop-reason' }))).toEqual({});
  });
});

describe('compressToolOutput for GitHub Copilot CLI (answerStyle modified-result)', () => {
  /** What Copilot CLI 1.0.102 sends: tool_result.text_result_for_llm as plain text, no tool_use_id. */
  const copilotPayload = payload({ toolUseId: 'derived-1', toolName: 'Bash', toolInput: { command: 'npm test', description: 'test' }, toolResponse: bigLog, idDerived: true });

  it('answers {modifiedResult: {textResultForLlm: <observation>, resultType: success}}, which Copilot sends in place of the output', async () => {
    const home = tempDir();
    const answer = (await compressToolOutput(copilotPayload, settings, deps(home, async () => observation, { answerStyle: 'modified-result' }))) as {
      modifiedResult: { textResultForLlm: string; resultType: string };
    };
    expect(Object.keys(answer)).toEqual(['modifiedResult']);
    expect(answer.modifiedResult.resultType).toBe('success');
    expect(answer.modifiedResult.textResultForLlm).toContain('## npm test: 1 of 40 suites fails');
    expect(answer.modifiedResult.textResultForLlm.length).toBeLessThan(bigLog.length / 4);
  });

  it('answers nothing for a small output', async () => {
    const home = tempDir();
    expect(await compressToolOutput({ ...copilotPayload, toolResponse: 'ok\n' }, settings, deps(home, async () => observation, { answerStyle: 'modified-result' }))).toEqual({});
  });
});
