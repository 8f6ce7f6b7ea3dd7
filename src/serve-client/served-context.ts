/**
 * Asks a running `recall serve` with the same configuration to render SessionStart contexts with its warm
 * table (see src/context/render-targets.ts, which both ends run). Null whenever it cannot (none
 * running, another configuration, it died mid-request, an answer that does not fit the request): the caller
 * then renders in-process.
 */
import type { ContextTarget, RenderedTarget } from '../context/render-targets.js';
import { exchange } from './serve-client.js';
import type { ContextAnswer, ContextRequest, ServeIdentity } from './serve-protocol.js';

const TIMEOUT_MS = 10_000;

export async function renderContextThroughServe(
  targets: readonly ContextTarget[],
  options: { socketPath: string; identity: ServeIdentity; maxChars: number; now: Date; changesDays?: number },
): Promise<RenderedTarget[] | null> {
  const request: ContextRequest = {
    v: 1, op: 'context', expect: options.identity, targets: [...targets], maxChars: options.maxChars, now: options.now.toISOString(),
    ...(options.changesDays === undefined ? {} : { changesDays: options.changesDays }),
  };
  const answer = (await exchange(options.socketPath, request, TIMEOUT_MS)) as ContextAnswer | null;
  if (answer?.ok !== true || !Array.isArray(answer.rendered) || answer.rendered.length !== targets.length) return null;
  const rendered = answer.rendered.map((file, i) => (isRendered(file, targets[i]!.namespace) ? file : null));
  return rendered.every((file) => file !== null) ? (rendered as RenderedTarget[]) : null;
}

function isRendered(value: unknown, namespace: string): value is RenderedTarget {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<RenderedTarget>;
  return file.namespace === namespace && typeof file.text === 'string' && isCount(file.included) && isCount(file.omitted);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A renderer for refreshContext that asks the daemon on `socketPath` (answering null when it cannot). */
export function contextRendererAt(socketPath: string, identity: ServeIdentity) {
  return (targets: readonly ContextTarget[], options: { maxChars: number; now: Date; changesDays?: number }): Promise<RenderedTarget[] | null> =>
    renderContextThroughServe(targets, { socketPath, identity, ...options });
}
