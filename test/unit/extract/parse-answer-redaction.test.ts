import { describe, expect, it } from 'vitest';
import { parseMemoriesAnswer } from '../../../src/extract/parse-answer.js';

describe('the model answer and secrets', () => {
  it('redacts each memory before its lines are joined, so secrets found by their line shape go', () => {
    const content = [
      'You MUST keep these connection settings for the staging database:',
      'db.internal:5432:app:app_user:pgP4ssFile!',
      'admin_password: purple monkey dishwasher 42',
    ].join('\n');
    const parsed = parseMemoriesAnswer(JSON.stringify({ memories: [{ content, type: 'golden_rule' }] }));
    const stored = JSON.stringify(parsed);
    expect(stored).toContain('staging database');
    expect(stored).not.toContain('pgP4ssFile!');
    expect(stored).not.toContain('dishwasher');
  });
});
