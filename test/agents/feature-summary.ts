/**
 * What the suite found each agent can do, written to test/agents/last-run.json as the tests run;
 * `node scripts/agent-table.mjs` prints the README's agent table from it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SUMMARY_FILE = fileURLToPath(new URL('./last-run.json', import.meta.url));

/** `not built`: the agent would allow it, recall does not do it yet (the note says what is missing). */
export type FeatureStatus = 'works' | 'not possible' | 'not built' | 'failed';

export interface FeatureResult {
  status: FeatureStatus;
  /** How it works, or why it cannot. */
  note: string;
}

interface Summary {
  ranAt: string;
  agents: Record<string, { version: string; features: Record<string, FeatureResult> }>;
}

function readSummary(): Summary {
  if (!existsSync(SUMMARY_FILE)) return { ranAt: new Date().toISOString(), agents: {} };
  return JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as Summary;
}

/** Records one feature's outcome for an agent (the agent's entry is started afresh by `startAgentSummary`). */
export function recordFeature(agent: string, feature: string, result: FeatureResult): void {
  const summary = readSummary();
  const entry = summary.agents[agent];
  if (entry === undefined) throw new Error(`startAgentSummary(${agent}) was not called`);
  entry.features[feature] = result;
  writeFileSync(SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`);
}

export function startAgentSummary(agent: string, version: string): void {
  const summary = readSummary();
  summary.ranAt = new Date().toISOString();
  summary.agents[agent] = { version, features: {} };
  writeFileSync(SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`);
}

/**
 * Runs a feature's check and records `works` with the note (and what the check measured, when it returns
 * a text), or `failed` with the error, then rethrows.
 */
export async function checkFeature(agent: string, feature: string, note: string, check: () => Promise<string | void>): Promise<void> {
  try {
    const measured = await check();
    recordFeature(agent, feature, { status: 'works', note: measured ? `${note} (${measured})` : note });
  } catch (err) {
    recordFeature(agent, feature, { status: 'failed', note: (err as Error).message.split('\n')[0]!.slice(0, 200) });
    throw err;
  }
}
