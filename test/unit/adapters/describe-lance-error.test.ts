import { describe, expect, it } from 'vitest';
import { describeLanceError } from '../../../src/adapters/lance-rows.js';

describe('describeLanceError', () => {
  it('keeps the first line and drops the Rust source locations LanceDB appends', () => {
    const err = new Error(
      'Failed to get next batch from stream: lance error: Invalid user input: file does not appear to be a Lance file (invalid magic: [76, 65, 78, 67]), /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-file-8.0.0/src/reader.rs:581:24\nCaused by: more',
    );
    expect(describeLanceError(err)).toBe('Failed to get next batch from stream: lance error: Invalid user input: file does not appear to be a Lance file (invalid magic: [76, 65, 78, 67])');
  });

  it('leaves a message without source locations as it is', () => {
    expect(describeLanceError(new Error('Table memories not found'))).toBe('Table memories not found');
  });
});
