import { describe, expect, it } from 'vitest';
import { cutToolResult, summarizeToolUse } from '../../../src/transcript/summarize-tool-use.js';

describe('cutting tool output', () => {
  it('redacts a token that the result limit would cut in half', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const text = `${'x'.repeat(290)} ${token}`;
    const cut = cutToolResult(text, 300);
    expect(cut).not.toContain('ghp_A1b2');
    expect(cut.length).toBeLessThan(text.length);
  });

  it('redacts secrets in one-line tool summaries', () => {
    const summary = summarizeToolUse('Bash', { command: 'curl -H "Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" https://x' });
    expect(summary).not.toContain('sk-ant-api03-abcdefghij');
    expect(summary).toMatch(/^\[tool Bash: curl/);
  });
});
