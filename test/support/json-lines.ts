import type { Readable } from 'node:stream';

/**
 * Calls `onMessage` with each newline-ended JSON line `stream` writes (a JSON-RPC server's stdout), in order.
 * Decodes UTF-8 across chunks, so a character split between two reads arrives whole.
 */
export function onJsonLines(stream: Readable, onMessage: (message: Record<string, unknown>) => void): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line !== '') onMessage(JSON.parse(line) as Record<string, unknown>);
  });
}
