import { describe, expect, it } from 'vitest';
import { checkNodeVersion } from '../../../src/doctor/check-node.js';

describe('checkNodeVersion', () => {
  it('passes Node 20.11 and newer', () => {
    expect(checkNodeVersion('v20.11.0').status).toBe('ok');
    expect(checkNodeVersion('v22.3.1')).toMatchObject({ status: 'ok', detail: 'v22.3.1' });
  });

  it('fails an older Node with an install fix', () => {
    const result = checkNodeVersion('v20.10.9');
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/20\.11\.0 or newer/);
    expect(result.fix).toMatch(/nvm install 20/);
  });

  it('warns when the version cannot be read', () => {
    expect(checkNodeVersion('banana').status).toBe('warn');
  });
});
