/**
 * The place a page of the memories list starts from, as it travels in a link: a memory's creation time
 * and id joined by `~` (an ISO time never holds one). Anything else in the URL reads as no place.
 */
import type { ListCursor } from '../core/ports.js';

const MAX_CURSOR_CHARS = 300;

export function writeCursor(cursor: ListCursor): string {
  return `${cursor.createdAt}~${cursor.id}`;
}

export function readCursor(value: string | undefined): ListCursor | undefined {
  if (value === undefined || value.length > MAX_CURSOR_CHARS) return undefined;
  const cut = value.indexOf('~');
  if (cut <= 0 || cut === value.length - 1) return undefined;
  const createdAt = value.slice(0, cut);
  if (Number.isNaN(Date.parse(createdAt))) return undefined;
  return { createdAt, id: value.slice(cut + 1) };
}
