import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardStdout } from '../../../src/mcp/guard-stdout.js';

function sink(): PassThrough & { text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(stream, { text: () => text });
}

describe('guardStdout', () => {
  it('sends protocol writes to the real stdout and any other write to stderr', async () => {
    const stdout = sink();
    const stderr = sink();
    const protocol = guardStdout(stdout as unknown as NodeJS.WriteStream, stderr as unknown as NodeJS.WriteStream);
    await new Promise<void>((resolve) => protocol.write('{"jsonrpc":"2.0"}\n', () => resolve()));
    (stdout as unknown as NodeJS.WriteStream).write('a stray console.log\n');
    expect(stdout.text()).toBe('{"jsonrpc":"2.0"}\n');
    expect(stderr.text()).toBe('a stray console.log\n');
  });

  it('passes errors of the real stdout on to the protocol stream', () => {
    const stdout = sink();
    const protocol = guardStdout(stdout as unknown as NodeJS.WriteStream, sink() as unknown as NodeJS.WriteStream);
    const seen: string[] = [];
    protocol.on('error', (err) => seen.push(err.message));
    stdout.emit('error', new Error('EPIPE'));
    expect(seen).toEqual(['EPIPE']);
  });
});
