import { describe, expect, it } from 'vitest';
import { RecallError } from '../../../src/core/errors.js';
import type { Logger, LogLevel } from '../../../src/core/log.js';
import { createInFlight } from '../../../src/mcp/in-flight.js';
import { runTool } from '../../../src/mcp/tool-result.js';

function recordingLogger(): Logger & { lines: Array<{ level: LogLevel; message: string; fields?: Record<string, unknown> }> } {
  const lines: Array<{ level: LogLevel; message: string; fields?: Record<string, unknown> }> = [];
  return { lines, log: (level, message, fields) => lines.push({ level, message, fields }) };
}

describe('runTool', () => {
  it('answers the body text as a text result and logs the call without its arguments', async () => {
    const logger = recordingLogger();
    const handler = runTool('memory_search', async (args: { query: string }) => `found ${args.query}`, { logger, inFlight: createInFlight() });
    expect(await handler({ query: 'secret words' })).toEqual({ content: [{ type: 'text', text: 'found secret words' }] });
    expect(logger.lines).toEqual([{ level: 'info', message: 'mcp tool call', fields: { tool: 'memory_search', ms: expect.any(Number) } }]);
  });

  it('turns a RecallError into an error result that starts with the tool name', async () => {
    const logger = recordingLogger();
    const handler = runTool('memory_forget', async () => {
      throw new RecallError('NOT_FOUND', 'no memory with id X; nothing was forgotten');
    }, { logger, inFlight: createInFlight() });
    expect(await handler({})).toEqual({ content: [{ type: 'text', text: 'memory_forget: no memory with id X; nothing was forgotten' }], isError: true });
    expect(logger.lines[0]?.level).toBe('warn');
  });

  it('turns an unexpected error into an error result and logs its stack', async () => {
    const logger = recordingLogger();
    const handler = runTool('memory_store', async () => {
      throw new TypeError('x is not a function');
    }, { logger, inFlight: createInFlight() });
    const result = await handler({});
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'memory_store failed unexpectedly: x is not a function (details in the recall log)' }]);
    expect(logger.lines[0]).toMatchObject({ level: 'error', fields: { stack: expect.stringContaining('TypeError') } });
  });

  it('counts the call as in flight until it settles', async () => {
    const inFlight = createInFlight();
    let release: () => void = () => undefined;
    const handler = runTool('memory_store', () => new Promise<string>((resolve) => (release = () => resolve('ok'))), { logger: recordingLogger(), inFlight });
    const pending = handler({});
    expect(inFlight.size).toBe(1);
    release();
    await pending;
    expect(inFlight.size).toBe(0);
  });
});
