/** The configured embedder loads and embeds without the network. Pure. */
import type { CheckResult } from './check-result.js';

export type EmbedderProbe =
  | { state: 'loaded'; ms: number; dimension: number }
  /** Downloads are allowed and the model has not been downloaded yet. */
  | { state: 'not-downloaded'; folder: string }
  | { state: 'failed'; message: string };

export function checkEmbedder(id: string, probe: EmbedderProbe): CheckResult {
  const base = { id: 'embedder', title: 'Embedder' } as const;
  switch (probe.state) {
    case 'loaded':
      return { ...base, status: 'ok', detail: `${id} embedded a test sentence in ${Math.round(probe.ms)} ms (${probe.dimension} dimensions)` };
    case 'not-downloaded':
      return {
        ...base,
        status: 'warn',
        detail: `${id} is not downloaded yet; the first capture downloads it once into ${probe.folder} (needs the network that one time)`,
        fix: `to stay offline, put the model files in ${probe.folder}, or: recall config set embedder.id hash`,
      };
    case 'failed': {
      const { detail, fix } = splitFix(probe.message);
      return { ...base, status: 'fail', detail, fix: fix ?? 'check embedder.id (`recall config get embedder.id`), or use the lexical fallback: recall config set embedder.id hash' };
    }
  }
}

/** Embedder errors end with `Fix: ...`; show that part as the fix. */
function splitFix(message: string): { detail: string; fix?: string } {
  const at = message.indexOf(' Fix: ');
  if (at === -1) return { detail: message };
  return { detail: message.slice(0, at).replace(/\.$/, ''), fix: message.slice(at + ' Fix: '.length).replace(/\.$/, '') };
}
