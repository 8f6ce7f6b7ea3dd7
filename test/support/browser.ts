/** What the browser tests share: Debian's chromium, and `recall ui` started with its printed URL left for the browser. */
import { execFileSync } from 'node:child_process';
import { execa, type ResultPromise } from 'execa';
import { BIN } from './cli.js';

/** The path of chromium on PATH, or null when it is not installed (the browser tests then skip). */
export function findChromium(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Starts `recall ui` and resolves with the process and the URL of its first stdout line, whose one-time code
 * is left for the browser to trade.
 */
export async function startUi(env: NodeJS.ProcessEnv): Promise<{ child: ResultPromise; url: string }> {
  const child = execa(process.execPath, [BIN, 'ui', '--no-open', '--port', '0'], { env, extendEnv: false, reject: false });
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.catch((err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
  });
  return { child, url: line.slice('recall ui: '.length) };
}
