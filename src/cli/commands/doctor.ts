import { homedir } from 'node:os';
import type { Command } from 'commander';
import { doctorPassed } from '../../doctor/check-result.js';
import { probeAgentFound, probeConfig, probeQueue, probeSettingsFile, probeStateDir } from '../../doctor/probe-local.js';
import { probeEmbedder, probeOllama, probeStore } from '../../doctor/probe-services.js';
import { renderChecks } from '../../doctor/render-checks.js';
import { runDoctor, type DoctorProbes } from '../../doctor/run-doctor.js';
import { resolveProject } from '../../project/resolve-project.js';
import { out } from '../output.js';
import { commandEnv, currentTerminal, setExitCode } from '../terminal.js';
import { terminalSafe } from '../terminal-safe.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check everything capture needs (Node, state dir, config, Ollama, model, embedder, database, hooks, queue) and say how to fix what is wrong')
    .option('--json', 'print { ok, checks } as JSON')
    .action(async (opts: { json?: boolean }) => {
      const env = commandEnv();
      const cwd = process.cwd();
      const probes: DoctorProbes = {
        config: () => probeConfig(env),
        stateDir: probeStateDir,
        ollama: probeOllama,
        embedder: (config, paths) => probeEmbedder(config, paths),
        store: probeStore,
        settingsFile: probeSettingsFile,
        agentFound: (dir, binary) => probeAgentFound(dir, binary, env.PATH),
        queue: probeQueue,
      };
      const results = await runDoctor(
        { nodeVersion: process.version, now: new Date(), homeDir: homedir(), codexHome: env.CODEX_HOME?.trim() || undefined, copilotHome: env.COPILOT_HOME?.trim() || undefined, projectDirs: [...new Set([cwd, resolveProject(cwd).root ?? cwd])] },
        probes,
      );
      const ok = doctorPassed(results);
      if (opts.json) out.json({ ok, checks: results });
      else {
        const onTerminal = currentTerminal().isTTY;
        for (const line of renderChecks(results, { unicode: onTerminal && env.TERM !== 'dumb', oneLine: !onTerminal })) out.line(terminalSafe(line));
      }
      if (!ok) setExitCode(1);
    });
}
