/**
 * Keeps stdout for protocol messages only. Returns a stream that writes to the real stdout, and points
 * `process.stdout.write` at stderr, so a stray print from any library can never corrupt the protocol.
 */
import { Writable } from 'node:stream';

export function guardStdout(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Writable {
  const writeProtocol = stdout.write.bind(stdout) as (chunk: unknown, encoding: BufferEncoding, done: (err?: Error | null) => void) => boolean;
  const protocol = new Writable({
    write(chunk: unknown, encoding: BufferEncoding, done: (err?: Error | null) => void) {
      writeProtocol(chunk, encoding, done);
    },
  });
  // Errors of the real stdout (EPIPE once the client is gone) reach whoever watches the protocol stream.
  stdout.on('error', (err) => protocol.emit('error', err));
  stdout.write = stderr.write.bind(stderr) as typeof stdout.write;
  return protocol;
}
