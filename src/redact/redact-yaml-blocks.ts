/**
 * A YAML block scalar under a secret's key (`password: >-`, `private_key: |`): the more indented lines
 * under the key are its value, and go. Pure.
 */
import { redactionMarker } from './redact-blocks.js';
import { isReferenceOrPlaceholder } from './judge-value.js';
import { looksLikeSecretValue, secretNameStrength } from './secret-name.js';

const BLOCK = /^([ \t]*)((?:-[ \t]+)?(["']?)([A-Za-z0-9_.-]{1,60})\3[ \t]*:[ \t]*[|>][-+]?[0-9]?[ \t]*(?:#[^\n]*)?\r?\n)((?:(?:\1[ \t]+[^\n]*|[ \t]*)(?:\r?\n|$))+)/gm;

export function redactYamlBlocks(text: string): { text: string; count: number } {
  if (!/:[ \t]*[|>]/.test(text)) return { text, count: 0 };
  let count = 0;
  const out = text.replace(BLOCK, (match: string, indent: string, head: string, _q: string, key: string, body: string) => {
    const strength = secretNameStrength(key);
    const value = body.trim();
    if (strength === undefined || value === '' || value.includes('[REDACTED:') || isReferenceOrPlaceholder(value)) return match;
    if (strength === 'weak' && !looksLikeSecretValue(value.replace(/\s+/g, ''))) return match;
    count += 1;
    const bodyIndent = /^[ \t]*/.exec(body)?.[0] ?? `${indent}  `;
    const trailing = /\r?\n[ \t\r\n]*$/.exec(body)?.[0] ?? '';
    return `${indent}${head}${bodyIndent}${redactionMarker('secret')}${trailing}`;
  });
  return { text: out, count };
}
