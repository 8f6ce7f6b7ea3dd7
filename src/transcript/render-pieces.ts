/** The pieces a rendered entry is made of, by what they show, and the ways an entry can be shown. */

export type PieceKind = 'user' | 'pasted' | 'assistant' | 'toolCalls' | 'toolOutput' | 'summary' | 'labels' | 'markers' | 'notes';

export interface Piece {
  kind: PieceKind;
  text: string;
  /** For a piece whose text is made when first read: the least its length can be, known before. */
  least?: number;
}

/** The ways one entry can be shown, smallest first. */
export type Variants = Piece[][];

export function length(pieces: readonly Piece[]): number {
  let n = 0;
  for (const piece of pieces) n += piece.text.length;
  return n;
}
export function outputChars(pieces: readonly Piece[]): number {
  let n = 0;
  for (const piece of pieces) if (piece.kind === 'toolOutput') n += piece.text.length;
  return n;
}

/** The least `length(pieces)` can be, without making a piece whose text is made when first read. */
export function leastLength(pieces: readonly Piece[]): number {
  let n = 0;
  for (const piece of pieces) n += piece.least ?? piece.text.length;
  return n;
}
