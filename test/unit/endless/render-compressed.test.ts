import { describe, expect, it } from 'vitest';
import { formatCount, renderObservationText, renderPointer, renderReductionText } from '../../../src/endless/render-compressed.js';

const meta = { toolName: 'Bash', originalChars: 12_345, originalLines: 230, fullOutputPath: '/home/u/.recall/endless/s/toolu_1.txt' };
const observation = {
  type: 'bugfix' as const,
  title: 'mix test: 4 of 5 tests fail',
  subtitle: 'project_review_live_test.exs:99',
  narrative: 'The review page renders an error page instead of the empty state.',
  facts: ['test/a_test.exs:99 assert failed', 'Finished in 1.2 seconds'],
  concepts: ['liveview', 'testing'],
  files: ['test/a_test.exs'],
};

describe('rendering compressed text', () => {
  it('ends with exactly one line naming the full output and how to read part of it', () => {
    const text = renderObservationText(observation, meta);
    const lines = text.split('\n');
    expect(lines.at(-1)).toBe(renderPointer(meta));
    expect(lines.at(-1)).toBe('Full output: /home/u/.recall/endless/s/toolu_1.txt (12,345 chars, 230 lines; read it with the Read tool, offset/limit)');
    expect(lines.filter((line) => line.startsWith('Full output:'))).toHaveLength(1);
  });

  it('renders the observation as markdown with its title, narrative, facts, files and concepts', () => {
    const text = renderObservationText(observation, meta);
    expect(text).toContain('## mix test: 4 of 5 tests fail\nproject_review_live_test.exs:99\n\nThe review page');
    expect(text).toContain('- test/a_test.exs:99 assert failed\n- Finished in 1.2 seconds');
    expect(text).toContain('Files: test/a_test.exs\nConcepts: liveview, testing');
    expect(text.startsWith('[recall: Bash output of 12,345 chars, compressed to an observation]')).toBe(true);
  });

  it('leaves out empty sections', () => {
    const text = renderObservationText({ ...observation, subtitle: '', facts: [], files: [], concepts: [] }, meta);
    expect(text).not.toContain('Files:');
    expect(text).not.toContain('Concepts:');
    expect(text).not.toContain('\n- ');
  });

  it('frames a reduction with a header and the pointer', () => {
    const text = renderReductionText('head\n… [lines 3–9 omitted] …\ntail', meta);
    expect(text.split('\n')).toHaveLength(5);
    expect(text.split('\n')[0]).toMatch(/^\[recall: Bash output of 12,345 chars, reduced/);
    expect(text.split('\n').at(-1)).toBe(renderPointer(meta));
  });

  it('groups thousands the same way everywhere', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_234_567)).toBe('1,234,567');
  });
});
