/**
 * Bounds the length of one line of a stream, so a reader that collects whole lines (readline) never
 * holds more than `maxBytes` of one line: past the limit the stream fails with the error `tooLong`
 * makes, instead of growing one string until the process runs out of memory.
 */
import { pipeline, Transform, type Readable } from 'node:stream';

const NEWLINE = 0x0a;

/** Passes `source` through unchanged while every line stays within `maxBytes` (newline excluded). */
export function limitLineBytes(source: Readable, maxBytes: number, tooLong: (lineNumber: number) => Error): Readable {
  /** Bytes of the line not yet ended, counted over the chunks so far. */
  let open = 0;
  let lineNumber = 1;
  const limiter = new Transform({
    // Strings from a decoding source stay strings for the reader after us.
    decodeStrings: false,
    transform(chunk: Buffer | string, _encoding, done) {
      const lengths = lineLengths(chunk);
      for (let i = 0; i < lengths.length; i += 1) {
        // The first piece continues the open line; each later one starts a line of its own.
        const bytes = (i === 0 ? open : 0) + (lengths[i] as number);
        if (bytes > maxBytes) {
          done(tooLong(lineNumber + i));
          return;
        }
        if (i === lengths.length - 1) open = bytes;
      }
      lineNumber += lengths.length - 1;
      done(null, chunk);
    },
  });
  // pipeline hands a read error of the source on to the limiter (and so to its reader), and closes both.
  pipeline(source, limiter, () => undefined);
  return limiter;
}

/** Byte lengths of the pieces between newlines (one more piece than the chunk has newlines). */
function lineLengths(chunk: Buffer | string): number[] {
  if (typeof chunk === 'string') return chunk.split('\n').map((piece) => Buffer.byteLength(piece));
  const lengths: number[] = [];
  let start = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
    lengths.push(at - start);
    start = at + 1;
  }
  lengths.push(chunk.length - start);
  return lengths;
}
