/**
 * Key material without PEM armour: PuTTY key files (`PuTTY-User-Key-File-N:` ... `Private-Lines:`
 * ... `Private-MAC:`), a PEM body whose BEGIN line was cut off (lines of base64 of PEM width, or a
 * DER key's `MII...` start), and the `data:` values of a Kubernetes Secret. Pure and linear: each
 * pattern consumes whole lines and is anchored at a line start.
 */
import { redactionMarker } from './redact-blocks.js';

const PUTTY = /PuTTY-User-Key-File-\d:[^\n]*\n(?:[^\n]*\n){0,8}?Private-Lines:[ \t]*\d+[ \t]*\r?\n(?:[ \t]*[A-Za-z0-9+/=]+[ \t]*\r?\n)*(?:Private-MAC:[ \t]*[0-9a-fA-F]+)?/g;
const PUTTY_PRIVATE = /(Private-Lines:[ \t]*\d+[ \t]*\r?\n)((?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*(?:\r?\n|$))+)/g;

/** Two or more lines of 60-76 base64 characters in a row (PEM and PGP bodies), and what closes them. */
const BASE64_LINES = /(?:^|(?<=\n))(?:[ \t]*[A-Za-z0-9+/]{60,76}[ \t]*\r?\n){2,}(?:[ \t]*[A-Za-z0-9+/]{1,76}={0,2}[ \t]*(?:\r?\n|$))?(?:=[A-Za-z0-9+/]{4}[ \t]*(?:\r?\n|$))?/g;
/** A DER private key or key container as one base64 token (`MIIE...`, `MIIC...`): the ASN.1 SEQUENCE start of a long key. */
const DER_TOKEN = /(?<![A-Za-z0-9+/])MII[A-Za-z0-9+/]{80,}={0,2}/g;

const KUBE_SECRET = /\bkind:[ \t]*["']?Secret\b/i;
/** A `data:` or `stringData:` block: its more indented `key: value` lines. */
const KUBE_DATA = /^([ \t]*)(?:data|stringData):[ \t]*\r?\n((?:\1[ \t]+[\w.-]+:[^\n]*(?:\r?\n|$))+)/gm;
const KUBE_ENTRY = /^([ \t]+[\w.-]+:[ \t]*)(?![|>][-+]?[ \t]*$)(["']?)([^\n"']+)\2[ \t]*$/gm;

export function redactKeyMaterial(text: string): { text: string; count: number } {
  let out = text;
  let count = 0;
  if (out.includes('PuTTY-User-Key-File-')) {
    out = out.replace(PUTTY, (match) => {
      const replaced = match
        .replace(PUTTY_PRIVATE, (_m, head: string) => `${head}${redactionMarker('private-key')}\n`)
        .replace(/(Private-MAC:[ \t]*)[0-9a-fA-F]+/, `$1${redactionMarker('private-key')}`);
      if (replaced !== match) count += 1;
      return replaced;
    });
  }
  if (out.includes('MII')) {
    out = out.replace(DER_TOKEN, () => {
      count += 1;
      return redactionMarker('private-key');
    });
  }
  out = out.replace(BASE64_LINES, (match) => {
    count += 1;
    return `${redactionMarker('key-material')}${match.endsWith('\n') ? '\n' : ''}`;
  });
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
