import { describe, expect, it } from 'vitest';
import { buildObservationPrompt, describeInput } from '../../../src/endless/observation-prompt.js';

describe('buildObservationPrompt', () => {
  it('names the tool, its input and the output size, and includes a short output whole', () => {
    const prompt = buildObservationPrompt('Bash', { command: 'npm test', description: 'run tests' }, 'PASS a\nFAIL b', { maxOutputChars: 1000, minNumCtx: 8192 });
    expect(prompt.user).toContain('Tool: Bash\nInput: npm test\nOutput (13 characters):\n<output>\nPASS a\nFAIL b\n</output>');
    expect(prompt.system).toContain('file paths, line numbers');
    expect(prompt.numCtx).toBe(8192);
  });

  it('shortens a long output to the budget, keeping its error lines', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `step ${'abcdef'[i % 6]}${'ghij'[i % 4]} running smoothly`);
    lines[2500] = 'Error: connect ECONNREFUSED 127.0.0.1:5432';
    const prompt = buildObservationPrompt('Bash', { command: 'npm start' }, lines.join('\n'), { maxOutputChars: 4000, minNumCtx: 2048 });
    expect(prompt.user.length).toBeLessThan(5000);
    expect(prompt.user).toContain('the middle left out');
    expect(prompt.user).toContain('L2501: Error: connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('raises num_ctx to fit a long prompt, up to 32k', () => {
    const page = Array.from({ length: 600 }, (_, i) => `Paragraph ${'abcdefghij'[i % 10]}${'klmnopq'[i % 7]} says something specific.`).join('\n');
    const prompt = buildObservationPrompt('WebFetch', { url: 'https://x.test' }, page, { maxOutputChars: 24_000, minNumCtx: 2048 });
    expect(prompt.numCtx).toBeGreaterThan(2048);
    expect(prompt.numCtx % 1024).toBe(0);
    expect(prompt.numCtx).toBeLessThanOrEqual(32_768);
  });
});

describe('describeInput', () => {
  it('picks the field that says what the tool did', () => {
    expect(describeInput('Read', { file_path: '/p/a.ts', offset: 10 })).toBe('/p/a.ts');
    expect(describeInput('Grep', { pattern: 'TODO', path: 'src' })).toBe('TODO (src)');
    expect(describeInput('mcp__x__y', { id: 3 })).toBe('{"id":3}');
    expect(describeInput('Bash', null)).toBe('(none)');
  });
});
