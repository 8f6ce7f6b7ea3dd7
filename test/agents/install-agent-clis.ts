/**
 * Installs the pinned agent CLIs (test/agents/clis/package-lock.json) once into
 * node_modules/.cache/recall-agents/<lockfile hash>, with `npm ci` run in that folder (with --prefix npm takes the enclosing project for the root), and finds their binaries. Later runs
 * reuse the folder. When npm cannot install them (no registry), the suite skips and says why.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIS_DIR = fileURLToPath(new URL('./clis/', import.meta.url));
const CACHE_ROOT = fileURLToPath(new URL('../../node_modules/.cache/recall-agents/', import.meta.url));

export interface AgentCli {
  bin: string;
  version: string;
}

export interface AgentClis {
  claude: AgentCli | null;
  droid: AgentCli | null;
  codex: AgentCli | null;
  gemini: AgentCli | null;
  copilot: AgentCli | null;
  qwen: AgentCli | null;
  /** Why a CLI is missing, for the skip message. */
  problems: string[];
}

let installed: AgentClis | null = null;

export function installAgentClis(): AgentClis {
  installed ??= install();
  return installed;
}

function install(): AgentClis {
  const lock = readFileSync(join(CLIS_DIR, 'package-lock.json'));
  const dir = join(CACHE_ROOT, createHash('sha256').update(lock).digest('hex').slice(0, 16));
  const stamp = join(dir, '.installed');
  const problems: string[] = [];
  if (!existsSync(stamp)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(CLIS_DIR, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(CLIS_DIR, 'package-lock.json'), join(dir, 'package-lock.json'));
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
      writeFileSync(stamp, new Date().toISOString());
      // Installs for older lockfiles are about 500 MB each: keep only this one.
      for (const other of readdirSync(CACHE_ROOT)) if (join(CACHE_ROOT, other) !== dir) rmSync(join(CACHE_ROOT, other), { recursive: true, force: true });
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim().split('\n').slice(-3).join(' ');
      problems.push(`npm ci of test/agents/clis failed: ${stderr}`);
      return { claude: null, droid: null, codex: null, gemini: null, copilot: null, qwen: null, problems };
    }
  }
  return {
    claude: probe(join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'), 'Claude Code', problems),
    droid: probe(join(dir, 'node_modules', '@factory', 'cli-linux-x64', 'bin', 'droid'), 'droid', problems),
    // The npm launcher (what `npx codex` runs); it starts the native binary of this platform's optional package.
    codex: probe(join(dir, 'node_modules', '@openai', 'codex', 'bin', 'codex.js'), 'Codex CLI', problems),
    gemini: probe(join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'), 'Gemini CLI', problems),
    // The npm launcher (what `npx copilot` runs); it starts the native binary of this platform's optional package.
    copilot: probe(join(dir, 'node_modules', '@github', 'copilot', 'npm-loader.js'), 'GitHub Copilot CLI', problems),
    // The npm bin (what `npx qwen` runs): it starts the bundled cli.js. Qwen Code asks for Node 22 but runs on Node 20.
    qwen: probe(join(dir, 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js'), 'Qwen Code', problems),
    problems,
  };
}

function probe(bin: string, name: string, problems: string[]): AgentCli | null {
  try {
    const version = execFileSync(bin, ['--version'], { env: { PATH: process.env.PATH, HOME: '/nonexistent' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
      .toString()
      .trim()
      .split(/\s+/)
      .find((word) => /^v?\d+\.\d+/.test(word))
      // Copilot CLI ends its version with a full stop ("GitHub Copilot CLI 1.0.102.").
      ?.replace(/\.$/, '');
    if (version === undefined) throw new Error('no version in its --version answer');
    return { bin, version };
  } catch (err) {
    problems.push(`${name} does not run on this machine (${bin}): ${(err as Error).message.split('\n')[0]}`);
    return null;
  }
}
