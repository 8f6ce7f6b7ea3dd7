#!/usr/bin/env node
/**
 * Prints the README's agent table (Markdown) from the agent suite's last run, test/agents/last-run.json
 * (written by `npm run test:agents`): one row per feature, one column per agent and the version tested; an
 * agent the suite has not run has its column, every cell `not run`.
 *   node scripts/agent-table.mjs [summary.json]     print it
 *   node scripts/agent-table.mjs --readme           put it into README.md (each cell's status only) and into
 *                                                   docs/agents.md (each cell with its note), between their
 *                                                   agent-table markers
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const toReadme = args.includes('--readme');
const file = args.find((arg) => !arg.startsWith('--')) ?? fileURLToPath(new URL('../test/agents/last-run.json', import.meta.url));
const summary = JSON.parse(readFileSync(file, 'utf8'));
/** Every agent recall installs into, in this order; one the suite has not run yet still gets its column. */
const KNOWN_AGENTS = ['Claude Code', 'Factory droid', 'Codex CLI', 'Gemini CLI', 'GitHub Copilot CLI', 'Qwen Code'];
const names = [...KNOWN_AGENTS, ...Object.keys(summary.agents).filter((name) => !KNOWN_AGENTS.includes(name))];
const agents = names.map((name) => [name, summary.agents[name] ?? { version: '(not run)', features: {} }]);
const features = [...new Set(agents.flatMap(([, entry]) => Object.keys(entry.features)))];

const cell = (result) => (result === undefined ? 'not run' : `**${result.status}**: ${result.note}`.replaceAll('|', '\\|').replaceAll('\n', ' '));
const status = (result) => (result === undefined ? 'not run' : result.status);
const render = (show) => {
  const lines = [
    `| Feature | ${agents.map(([name, entry]) => `${name} ${entry.version}`).join(' | ')} |`,
    `| --- | ${agents.map(() => '---').join(' | ')} |`,
    ...features.map((feature) => `| ${feature} | ${agents.map(([, entry]) => show(entry.features[feature])).join(' | ')} |`),
  ];
  return `${lines.join('\n')}\n\nFrom the agent suite's run of ${summary.ranAt.slice(0, 10)} (\`npm run test:agents\`).\n`;
};
if (toReadme) {
  writeBetweenMarkers('../README.md', render(status));
  writeBetweenMarkers('../docs/agents.md', render(cell));
} else {
  process.stdout.write(render(cell));
}

function writeBetweenMarkers(relative, table) {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  const text = readFileSync(path, 'utf8');
  const marked = /(<!-- agent-table:start -->\n)[\s\S]*?(<!-- agent-table:end -->)/;
  if (!marked.test(text)) throw new Error(`${relative} has no agent-table markers`);
  writeFileSync(path, text.replace(marked, (_all, start, end) => `${start}${table}${end}`));
}
