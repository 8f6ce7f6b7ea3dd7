/**
 * Key material without PEM armour: PuTTY key files (`PuTTY-User-Key-File-N:` ... `Private-Lines:`
 * ... `Private-MAC:`), a PEM body whose BEGIN line was cut off (lines of base64 of PEM width, or a
 * DER key's `MII...` start), and the `data:` values of a Kubernetes Secret. Pure and linear: each
 * pattern consumes whole lines and is anchored at a line start.
 */
import { redactionMarker } from './redact-blocks.js';

// Whitespace between the parts may be newlines or, once a text was flattened (a model's answer), spaces.
const PUTTY = /PuTTY-User-Key-File-\d:[\s\S]{0,4000}?Private-Lines:[ \t]*\d+\s+(?:[A-Za-z0-9+/=]+(?:\s+|$))*(?:Private-MAC:[ \t]*[0-9a-fA-F]+)?/g;
const PUTTY_PRIVATE = /(Private-Lines:[ \t]*\d+\s+)((?:[A-Za-z0-9+/=]{4,}(?:\s+|$))+)/g;

/** Two or more lines (or, flattened, words) of 60-76 base64 characters in a row (PEM and PGP bodies), and what closes them. */
const BASE64_LINES = /(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]{60,76}[ \t]*(?:\r?\n|[ \t])[ \t]*){2,}(?:[A-Za-z0-9+/]{1,76}={0,2}(?![A-Za-z0-9+/=]))?(?:\s*=[A-Za-z0-9+/]{4}(?![A-Za-z0-9+/=]))?/g;
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CHAR[c.charCodeAt(0)] = 1;

/** What BASE64_LINES needs, a run of 60 base64 characters, found by a plain scan (a regex tries every position). */
function hasLongBase64Run(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 128 && BASE64_CHAR[code] === 1) {
      run += 1;
      if (run >= 60) return true;
    } else run = 0;
  }
  return false;
}
/** A DER private key or key container as one base64 token (`MIIE...`, `MIIC...`): the ASN.1 SEQUENCE start of a long key. */
const DER_TOKEN = /(?<![A-Za-z0-9+/])MII[A-Za-z0-9+/]{80,}={0,2}/g;

const KUBE_SECRET = /\bkind:[ \t]*["']?Secret\b/i;
/** A `data:` or `stringData:` block: its more indented `key: value` lines. */
const KUBE_DATA = /^([ \t]*)(?:data|stringData):[ \t]*\r?\n((?:\1[ \t]+[\w.-]+:[^\n]*(?:\r?\n|$))+)/gm;
const KUBE_ENTRY = /^([ \t]+[\w.-]+:[ \t]*)(?![|>][-+]?[ \t]*$)(["']?)([^\n"']+)\2[ \t]*$/gm;

/** Key files found by a fixed marker anywhere in the text: PuTTY key files and a Kubernetes Secret's `data:` values. */
export function redactKeyFiles(text: string): { text: string; count: number } {
  let out = text;
  let count = 0;
  if (out.includes('PuTTY-User-Key-File-')) {
    out = out.replace(PUTTY, (match) => {
      const replaced = match
        .replace(PUTTY_PRIVATE, (m: string, head: string) => `${head}${redactionMarker('private-key')}${m.endsWith('\n') ? '\n' : ' '}`)
        .replace(/(Private-MAC:[ \t]*)[0-9a-fA-F]+/, `$1${redactionMarker('private-key')}`);
      if (replaced !== match) count += 1;
      return replaced;
    });
  }
  if (KUBE_SECRET.test(out)) {
    out = out.replace(KUBE_DATA, (block: string) =>
      block.replace(KUBE_ENTRY, (entry: string, head: string, quote: string, value: string) => {
        if (value.includes('[REDACTED:') || /^\{\{.*\}\}$/.test(value.trim())) return entry;
        count += 1;
        return `${head}${quote}${redactionMarker('kube-secret')}${quote}`;
      }),
    );
  }
  return { text: out, count };
}

/** Key material without armour in a window of text: a DER key as one base64 token, PEM or PGP body lines. */
export function redactKeyMaterial(text: string): { text: string; count: number } {
  let out = text;
  let count = 0;
  if (out.includes('MII')) {
    out = out.replace(DER_TOKEN, () => {
      count += 1;
      return redactionMarker('private-key');
    });
  }
  if (hasLongBase64Run(out)) out = out.replace(BASE64_LINES, (match) => {
    // Hex digests side by side are not key material.
    if (match.trim().split(/\s+/).every((word) => /^[0-9a-f]+$/i.test(word))) return match;
    count += 1;
    return `${redactionMarker('key-material')}${/\s$/.test(match) ? match.slice(match.trimEnd().length) : ''}`;
  });
  return { text: out, count };
}
