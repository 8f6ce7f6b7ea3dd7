/** The PostToolUse hook runs at every tool call: its start must read as few files as the build can make it. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importClosure } from '../support/import-graph.js';

const DIST = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../dist');

describe('the PostToolUse hook build', () => {
  it('is one file with its small modules (the config key table and its reader included) folded in', () => {
    expect(importClosure(join(DIST, 'hook/post-tool-use.js'), { followDynamic: false }).files).toEqual([join(DIST, 'hook/post-tool-use.js')]);
  });

  it('still loads the redactor and the compression only on their branch, as separate files', () => {
    const lazy = importClosure(join(DIST, 'hook/post-tool-use.js'), { followDynamic: true }).files;
    expect(lazy).toContain(join(DIST, 'redact/redact-secrets.js'));
    expect(lazy).toContain(join(DIST, 'endless/compress-tool-output.js'));
  });
});
