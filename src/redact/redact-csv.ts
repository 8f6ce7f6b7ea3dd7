/**
 * Credential exports as CSV (the AWS console's `credentials.csv`, password manager exports): a header
 * line names the columns, and the columns whose header names a secret (`Password`, `Secret access key`,
 * `token`; not `Access key ID` or `User name`) lose their values in every row below with as many fields.
 * Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isReferenceOrPlaceholder } from './judge-value.js';
import { secretNameStrength } from './secret-name.js';

/** Splits a CSV line into fields with their places, quotes kept (no field holds a newline here). */
function fields(line: string): Array<{ start: number; end: number; value: string }> {
  const out: Array<{ start: number; end: number; value: string }> = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) {
    const value = m[1] ?? '';
    out.push({ start: m.index, end: m.index + value.length, value });
    if (m[2] === '') break;
  }
  return out;
}

const unquote = (value: string): string => value.replace(/^"(.*)"$/s, '$1').replace(/""/g, '"').trim();

/** What every name of a secret column holds (see secret-name.ts): a header without it has none, and is not split. */
const SECRET_WORD = /pass|pwd|pw|pin|secret|token|cred|key/i;

function secretColumns(header: string): number[] {
  return fields(header).flatMap((f, i) => {
    const name = unquote(f.value);
    if (name === '' || name.length > 60 || /\b(?:id|name|user|username|email|link|url|date|created|status|type)$/i.test(name)) return [];
    return secretNameStrength(name) === 'strong' || /\b(?:secret|password|token|private key)\b/i.test(name) ? [i] : [];
  });
}

export function redactCsv(text: string): { text: string; count: number } {
  if (!text.includes(',')) return { text, count: 0 };
  const lines = text.split('\n');
  let count = 0;
  for (let h = 0; h < lines.length; h += 1) {
    const header = lines[h] as string;
    if (!header.includes(',') || !SECRET_WORD.test(header)) continue;
    const columns = secretColumns(header);
    if (columns.length === 0) continue;
    const width = fields(header).length;
    for (let r = h + 1; r < lines.length; r += 1) {
      const row = lines[r] as string;
      const cells = fields(row);
      if (cells.length !== width) break;
      let next = row;
      // Right to left, so earlier places stay valid.
      for (const c of [...columns].reverse()) {
        const cell = cells[c];
        if (cell === undefined) continue;
        const value = unquote(cell.value);
        if (value === '' || value.includes('[REDACTED:') || isReferenceOrPlaceholder(value)) continue;
        const quoted = cell.value.startsWith('"');
        next = `${next.slice(0, cell.start)}${quoted ? '"' : ''}${redactionMarker('csv-secret')}${quoted ? '"' : ''}${next.slice(cell.end)}`;
        count += 1;
      }
      lines[r] = next;
      h = r;
    }
  }
  return count === 0 ? { text, count } : { text: lines.join('\n'), count };
}
