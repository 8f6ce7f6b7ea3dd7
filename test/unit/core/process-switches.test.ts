/** The two process switches, read in one place for every hook and command. */
import { describe, expect, it } from 'vitest';
import { hookSpawnAllowed, serveAllowed } from '../../../src/core/process-switches.js';

describe('RECALL_HOOK_SPAWN', () => {
  it.each(['0', 'false', 'no', 'off', 'FALSE', 'Off'])('"%s" keeps hooks from starting a worker', (value) => {
    expect(hookSpawnAllowed({ RECALL_HOOK_SPAWN: value })).toBe(false);
  });
  it.each([undefined, '', '1', 'true', 'yes', 'nope'])('%s lets them start one', (value) => {
    expect(hookSpawnAllowed(value === undefined ? {} : { RECALL_HOOK_SPAWN: value })).toBe(true);
  });
});

describe('RECALL_NO_SERVE', () => {
  it.each(['1', 'true', 'yes', 'TRUE', 'Yes'])('"%s" keeps this process off a running recall serve', (value) => {
    expect(serveAllowed({ RECALL_NO_SERVE: value })).toBe(false);
  });
  it.each([undefined, '', '0', 'false', 'no'])('%s lets it use one', (value) => {
    expect(serveAllowed(value === undefined ? {} : { RECALL_NO_SERVE: value })).toBe(true);
  });
});
