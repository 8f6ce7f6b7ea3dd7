#!/usr/bin/env node
/**
 * Prints the README's agent table (Markdown) from the agent suite's last run, test/agents/last-run.json
 * (written by `npm run test:agents`): one row per feature, one column per agent and the version tested.
 *   node scripts/agent-table.mjs [summary.json]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = process.argv[2] ?? fileURLToPath(new URL('../test/agents/last-run.json', import.meta.url));
const summary = JSON.parse(readFileSync(file, 'utf8'));
const agents = Object.entries(summary.agents);
const features = [...new Set(agents.flatMap(([, entry]) => Object.keys(entry.features)))];

const cell = (result) => (result === undefined ? 'not run' : `**${result.status}**: ${result.note}`.replaceAll('|', '\\|').replaceAll('\n', ' '));
const lines = [
  `| Feature | ${agents.map(([name, entry]) => `${name} ${entry.version}`).join(' | ')} |`,
  `| --- | ${agents.map(() => '---').join(' | ')} |`,
  ...features.map((feature) => `| ${feature} | ${agents.map(([, entry]) => cell(entry.features[feature])).join(' | ')} |`),
];
process.stdout.write(`${lines.join('\n')}\n\nFrom the agent suite's run of ${summary.ranAt.slice(0, 10)} (\`npm run test:agents\`).\n`);
