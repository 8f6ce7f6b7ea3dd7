/**
 * Turns a tool's text (or its failure) into an MCP tool result. Failures are results with `isError: true`
 * (what the model sees and can act on), never protocol errors, and the server keeps serving.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RecallError, describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { InFlight } from './in-flight.js';

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export type ToolHandler<A> = (args: A) => Promise<CallToolResult>;

/** Wraps a tool body: counted as in flight, timed and logged, errors turned into error results. */
export function runTool<A>(name: string, body: (args: A) => Promise<string>, deps: { logger: Logger; inFlight: InFlight }): ToolHandler<A> {
  return (args) =>
    deps.inFlight.track(async () => {
      const started = performance.now();
      try {
        const text = await body(args);
        deps.logger.log('info', 'mcp tool call', { tool: name, ms: elapsed(started) });
        return textResult(text);
      } catch (err) {
        if (err instanceof RecallError) {
          deps.logger.log('warn', 'mcp tool call failed', { tool: name, ms: elapsed(started), error: describeError(err) });
          return errorResult(`${name}: ${err.message}`);
        }
        deps.logger.log('error', 'mcp tool call crashed', { tool: name, ms: elapsed(started), error: describeError(err), stack: (err as Error)?.stack });
        return errorResult(`${name} failed unexpectedly: ${describeError(err)} (details in the recall log)`);
      }
    });
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
