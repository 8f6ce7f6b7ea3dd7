/** The redaction corpus (test/fixtures/redaction/*.jsonl) and how a redactor scores on it. */
import { readFileSync } from 'node:fs';

export interface SecretCase {
  kind: string;
  text: string;
  /** Every one of these must be gone from the redacted text. */
  secrets: string[];
}

export interface LookalikeCase {
  kind: string;
  text: string;
}

const DIR = new URL('../fixtures/redaction/', import.meta.url);

function readLines<T>(name: string): T[] {
  return readFileSync(new URL(name, DIR), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** `set`: '' for the tuning corpus, 'heldout-' for the held-out one written after tuning. */
export function readCorpus(set: '' | 'heldout-' = ''): { secrets: SecretCase[]; lookalikes: LookalikeCase[] } {
  return { secrets: readLines<SecretCase>(`${set}secrets.jsonl`), lookalikes: readLines<LookalikeCase>(`${set}lookalikes.jsonl`) };
}

/** The cases whose secrets are not all gone from `seen(case)` (the text a reader got). */
export function leakedCases(cases: readonly SecretCase[], seen: (c: SecretCase, index: number) => string): SecretCase[] {
  return cases.filter((c, i) => {
    const out = seen(c, i);
    return c.secrets.some((s) => out.includes(s));
  });
}
