// SessionStart hook wall time against a bare `node -e 0`, interleaved, median of N runs each,
// with a real rendered context file (~6,000 characters) in place for the project.
// Usage: npm run build && node bench/session-start-overhead.mjs [runs]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { renderContext } = await import(dist('context/render-context.js'));
const { CONTEXT_FILE_VERSION, contextFilePath, serializeContextFile } = await import(dist('context/context-file.js'));
const { statePaths } = await import(dist('core/state-paths.js'));
const { resolveProject } = await import(dist('project/resolve-project.js'));
const { writeFileAtomic } = await import(dist('core/atomic-write.js'));

const runs = Number(process.argv[2] ?? 20);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-bench-start-'));
const home = join(root, 'home');
const projectDir = join(root, 'shop');
mkdirSync(projectDir, { recursive: true });
writeFileSync(join(projectDir, 'package.json'), '{"name":"shop"}');
// The real hook as installed; the spool is empty, so it never starts a worker.
const env = cleanEnv({ RECALL_HOME: home });

// A context file rendered by the real renderer from memories of every type, as the worker writes it.
const project = resolveProject(projectDir);
const now = new Date();
const types = ['golden_rule', 'preference', 'decision', 'pattern', 'session'];
const memories = Array.from({ length: 150 }, (_, i) => {
  const at = new Date(now.getTime() - i * 3_600_000).toISOString();
  return {
    id: `bench-${String(i).padStart(4, '0')}`,
    content: `Memory ${i}: you must keep the ${['pnpm', 'cents', 'migrations', 'release', 'tabs'][i % 5]} convention of this project, as agreed in an earlier session.`,
    type: types[i % 5],
    importance: [1, 0.7, 0.8, 0.6, 0.3][i % 5],
    namespace: project.namespace,
    projectRoot: project.root,
    sessionId: `s-${i}`,
    source: 'claude',
    embedder: 'hash:64',
    createdAt: at,
    lastSeenAt: at,
    seenCount: 1 + (i % 4),
  };
});
const rendered = renderContext(memories, { maxChars: 6000, now, projectName: project.name });
writeFileAtomic(
  contextFilePath(statePaths(home).contextDir, project.namespace),
  serializeContextFile({ version: CONTEXT_FILE_VERSION, namespace: project.namespace, generatedAt: now.toISOString(), ...rendered }),
);
const payload = JSON.stringify({ session_id: 'bench', cwd: projectDir, hook_event_name: 'SessionStart', source: 'startup' });

const bare = [];
const hook = [];
let injected = 0;
try {
  for (let i = 0; i < runs; i += 1) {
    bare.push(timeRun(process.execPath, ['-e', '0'], { env }).ms);
    const run = timeRun(process.execPath, [cli, 'hook', 'session-start'], { input: payload, env });
    const output = JSON.parse(run.stdout);
    injected = output.hookSpecificOutput?.additionalContext?.length ?? 0;
    if (injected === 0) throw new Error(`the hook injected nothing: ${run.stdout}`);
    hook.push(run.ms);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const result = {
  runs,
  contextChars: rendered.text.length,
  injectedChars: injected,
  bareNodeMedianMs: round(median(bare)),
  hookMedianMs: round(median(hook)),
  overheadMs: round(median(hook) - median(bare)),
};
console.log(`SessionStart hook, median of ${runs} interleaved runs (NODE_EXTRA_CA_CERTS unset in both):`);
console.log(`  context file        ${result.contextChars} chars rendered, ${result.injectedChars} injected`);
console.log(`  bare node -e 0      ${result.bareNodeMedianMs} ms`);
console.log(`  recall hook         ${result.hookMedianMs} ms`);
console.log(`  overhead            ${result.overheadMs} ms   (target: <= 30 ms)`);
recordResult('sessionStartHook', result);

function round(n) {
  return Math.round(n * 10) / 10;
}
