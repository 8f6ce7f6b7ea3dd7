/** Asking the person at the terminal before a destructive step. */
import { createInterface } from 'node:readline/promises';

/** Whether someone is there to answer: both stdin and stderr (where the question goes) are terminals. */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

/** Asks a yes/no question on stderr; only `y` or `yes` counts as yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
