import { describe, it, expect } from 'vitest';
import type { Turn } from '../../../src/transcript/parse-transcript-line.js';
import { createTurnRenderer, renderTurns } from '../../../src/transcript/render-transcript.js';

describe('renderTurns', () => {
  it('renders nothing for no turns', () => {
    expect(renderTurns([])).toBe('');
  });

  it('labels speakers and separates them with a blank line', () => {
    const turns: Turn[] = [
      { role: 'user', text: 'Use pnpm.' },
      { role: 'assistant', text: 'Will do.' },
    ];
    expect(renderTurns(turns)).toBe('User: Use pnpm.\n\nAssistant: Will do.');
  });

  it('joins assistant chunks sharing a message id under one label', () => {
    const turns: Turn[] = [
      { role: 'assistant', text: 'First part.', messageId: 'm1' },
      { role: 'assistant', text: 'Second part.', messageId: 'm1' },
    ];
    expect(renderTurns(turns)).toBe('Assistant: First part.\nSecond part.');
  });

  it('gives each message its own label when ids differ or are missing', () => {
    const turns: Turn[] = [
      { role: 'assistant', text: 'One.', messageId: 'm1' },
      { role: 'assistant', text: 'Two.', messageId: 'm2' },
      { role: 'user', text: 'Three.' },
      { role: 'user', text: 'Four.' },
    ];
    expect(renderTurns(turns)).toBe('Assistant: One.\n\nAssistant: Two.\n\nUser: Three.\n\nUser: Four.');
  });

  it('indents tool lines under the speaker, and their continuation lines further', () => {
    const turns: Turn[] = [
      { role: 'assistant', text: 'Running tests.', messageId: 'm1' },
      { role: 'tool', text: '[tool Bash: npm test]', messageId: 'm1' },
      { role: 'tool', text: '[result] FAIL a.test.ts\n  expected 1' },
    ];
    expect(renderTurns(turns)).toBe(
      'Assistant: Running tests.\n  [tool Bash: npm test]\n  [result] FAIL a.test.ts\n      expected 1',
    );
  });

  it('starts a new label for text that follows tool lines, even within one message', () => {
    const turns: Turn[] = [
      { role: 'assistant', text: 'Before.', messageId: 'm1' },
      { role: 'tool', text: '[tool Bash: ls]', messageId: 'm1' },
      { role: 'assistant', text: 'After.', messageId: 'm1' },
    ];
    expect(renderTurns(turns)).toBe('Assistant: Before.\n  [tool Bash: ls]\n\nAssistant: After.');
  });

  it('renders a leading tool line without a blank line before it', () => {
    expect(renderTurns([{ role: 'tool', text: '[result] ok' }])).toBe('  [result] ok');
  });

  it('gives the same text one turn at a time as all at once', () => {
    const turns: Turn[] = [
      { role: 'user', text: 'a' },
      { role: 'assistant', text: 'b', messageId: 'x' },
      { role: 'assistant', text: 'c', messageId: 'x' },
      { role: 'tool', text: '[tool T]' },
      { role: 'user', text: 'd' },
    ];
    const renderer = createTurnRenderer();
    expect(turns.map((t) => renderer.render(t)).join('')).toBe(renderTurns(turns));
  });
});
