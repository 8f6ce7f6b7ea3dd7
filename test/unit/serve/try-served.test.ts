/** How the `recall serve` client writes the daemon's answer: synchronously, whole, or handed to node's stream. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFully } from '../../../src/serve/try-served.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

afterEach(() => vi.restoreAllMocks());

describe('writeFully', () => {
  it('keeps writing until every byte is out, however little each write takes', () => {
    const written: Buffer[] = [];
    const write = (_fd: number, data: Buffer) => {
      const taken = data.subarray(0, 3);
      written.push(Buffer.from(taken));
      return taken.length;
    };
    expect(writeFully(1, 'héllo wörld', write)).toBe(true);
    expect(Buffer.concat(written).toString('utf8')).toBe('héllo wörld');
  });

  it('hands the rest to the stream when the descriptor would block, and says the answer is not flushed', () => {
    const stream = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let calls = 0;
    const write = (_fd: number, data: Buffer) => {
      calls += 1;
      if (calls > 1) throw errno('EAGAIN');
      return Math.min(4, data.length);
    };
    expect(writeFully(2, 'abcdefgh', write)).toBe(false);
    expect(stream).toHaveBeenCalledTimes(1);
    expect(Buffer.from(stream.mock.calls[0]![0] as Uint8Array).toString()).toBe('efgh');
  });

  it('stops quietly when the reader has gone away', () => {
    const stream = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(writeFully(1, 'abc', () => { throw errno('EPIPE'); })).toBe(true);
    expect(stream).not.toHaveBeenCalled();
  });

  it('writes nothing for an empty answer', () => {
    const write = vi.fn(() => 0);
    expect(writeFully(2, '', write)).toBe(true);
    expect(write).not.toHaveBeenCalled();
  });
});
