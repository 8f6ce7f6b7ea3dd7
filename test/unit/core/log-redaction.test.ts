import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLogger } from '../../../src/core/log.js';
import { parseMemoriesAnswer } from '../../../src/extract/parse-answer.js';
import { redactSecrets } from '../../../src/redact/redact-secrets.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const HF = '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';

describe('log lines and secrets', () => {
  it('writes no secret through a logger given the redactor, and each line stays one JSON object', () => {
    const file = join(tempDir(), 'recall.log');
    const logger = fileLogger(file, 'worker', { redact: (text) => redactSecrets(text).text });
    logger.log('error', `model failed on PASSWORD=correct horse battery staple`, { lastError: `token ${HF}`, nested: { items: [`HF_TOKEN=${HF}`] } });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(HF);
    expect(text).not.toContain('staple');
    const entry = JSON.parse(text.trim()) as { msg: string; lastError: string };
    expect(entry.msg).toBe('model failed on PASSWORD=[REDACTED:password]');
    expect(entry.lastError).toContain('[REDACTED:');
  });

  it('quotes a model answer it cannot read without the secrets in it', () => {
    let message = '';
    try {
      parseMemoriesAnswer(`Sorry, I can't. The key HF_TOKEN=${HF} was in the transcript.`);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('holds no memory list');
    expect(message).not.toContain(HF.slice(0, 20));
  });
});
