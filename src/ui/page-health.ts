/** What `recall doctor` reports, as a table, and which process serves the page. */
import { homedir } from 'node:os';
import { html } from 'hono/html';
import { probeAgentFound, probeConfig, probeQueue, probeSettingsFile, probeStateDir } from '../doctor/probe-local.js';
import { probeEmbedder, probeOllama, probeStore } from '../doctor/probe-services.js';
import { runDoctor } from '../doctor/run-doctor.js';
import type { Html } from './ui-layout.js';
import { visible } from './visible-text.js';

/**
 * `store` reads the table whole for damage (probeStore): the caller keeps its answer while the table is
 * the same (at 100k rows the read took 70-260 ms of each look at this page). `embedder` loads the model and
 * embeds a sentence: the caller keeps the loaded model between looks (keepEmbedders).
 */
export async function renderHealthPage(
  env: NodeJS.ProcessEnv,
  cwd: string,
  servedBy: string,
  store: typeof probeStore = probeStore,
  embedder: typeof probeEmbedder = probeEmbedder,
): Promise<Html> {
  const results = await runDoctor(
    { nodeVersion: process.version, now: new Date(), homeDir: homedir(), codexHome: env.CODEX_HOME?.trim() || undefined, copilotHome: env.COPILOT_HOME?.trim() || undefined, projectDirs: [cwd] },
    { config: () => probeConfig(env), stateDir: probeStateDir, ollama: probeOllama, embedder, store, settingsFile: probeSettingsFile, agentFound: (dir, binary) => probeAgentFound(dir, binary, env.PATH), queue: probeQueue },
  );
  return html`<p class="muted" id="served-by">This page is served by ${servedBy} (pid ${process.pid}).</p>
<table><thead><tr><th>check</th><th>result</th><th>detail</th></tr></thead><tbody>
${results.map((r) => html`<tr><td data-label="check">${r.title}</td><td data-label="result" class="${r.status}">${r.status}</td><td data-label="detail" class="text">${visible(r.detail)}${r.fix ? html`<br><span class="muted">${visible(r.fix)}</span>` : ''}</td></tr>`)}
</tbody></table>`;
}
