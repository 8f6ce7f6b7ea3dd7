import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FRONT_MAX_LINE_BYTES, serveFront, type StaticAnswers } from '../../../src/mcp/serve-mcp-fast.js';

const ANSWERS: StaticAnswers = { supportedVersions: ['2025-06-18'], latestVersion: '2025-06-18', initialize: {}, list: { tools: [] } };

describe('the MCP front', () => {
  it('hands an unfinished line longer than its bound to the full server at once, every byte of it, instead of buffering it', async () => {
    const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
    let handed: Buffer | null = null;
    const done = serveFront(ANSWERS, async (full) => {
      const chunks: Buffer[] = [];
      full.on('data', (chunk: Buffer) => chunks.push(chunk));
      await new Promise((resolve) => setImmediate(resolve));
      handed = Buffer.concat(chunks);
    }, stdin, () => undefined);
    const big = Buffer.alloc(FRONT_MAX_LINE_BYTES + 1, 0x61);
    (stdin as unknown as PassThrough).write(big);
    await done;
    expect(handed).not.toBeNull();
    expect(handed!.equals(big)).toBe(true);
  });
});
