import { describe, expect, it } from 'vitest';
import { planRender, type Step } from '../../../src/transcript/plan-render.js';
import type { SessionEntry } from '../../../src/transcript/session-events.js';
import { ToolOutput } from '../../../src/transcript/tool-output.js';
import { seededRandom } from '../../../scripts/seeded-random.mjs';


function session(seed: number, compactions: number): SessionEntry[] {
  const rand = seededRandom(seed);
  const entries: SessionEntry[] = [];
  for (let i = 0; i < 300; i += 1) {
    const r = rand();
    if (r < 0.25) entries.push({ kind: 'user', text: 'do it', pasted: [] });
    else if (r < 0.3) entries.push({ kind: 'interrupt' });
    else if (r < 0.55) entries.push({ kind: 'assistant', text: 'done', fullChars: 4, final: rand() < 0.3, ...(rand() < 0.2 ? { narration: true } : {}), ...(rand() < 0.1 ? { verdict: { outcome: 'failed' as const, detail: 'x' } } : {}) });
    else if (r < 0.6) entries.push({ kind: 'subagent', turns: 2, task: 't', result: 'r' });
    else {
      const outcome = (['failed', 'passed', 'committed', undefined] as const)[Math.floor(rand() * 4)];
      entries.push({ kind: 'tool', name: 'Bash', summary: '[tool Bash: x]', output: ToolOutput.of('out'), outputChars: 3, ...(outcome === undefined ? {} : { outcome }) });
    }
  }
  for (let k = 0; k < compactions; k += 1) entries.splice(Math.floor(rand() * entries.length), 0, { kind: 'compaction', text: 'summary' });
  return entries;
}

describe('planRender', () => {
  it('orders its steps by tier, then rank, as a sort of them does, with no, one or several compactions', () => {
    for (const [seed, compactions] of [[1, 0], [2, 1], [3, 2], [4, 3], [5, 0], [6, 1]] as const) {
      const entries = session(seed, compactions);
      const variants = entries.map((e) => (e.kind === 'tool' || (e.kind === 'assistant' && e.final) ? [[{ kind: 'notes' as const, text: 'a' }], [{ kind: 'notes' as const, text: 'ab' }]] : [[{ kind: 'notes' as const, text: 'a' }]]));
      const whole = new Map([[entries.length - 1, 100]]);
      const steps = planRender(entries, variants, whole, new Set());
      const sorted = [...steps].sort((a: Step, b: Step) => a.tier - b.tier || a.rank - b.rank);
      expect(steps).toEqual(sorted);
      expect(new Set(steps.map((s) => `${s.entry}:${s.tier}`)).size).toBe(steps.length);
    }
  });
});
