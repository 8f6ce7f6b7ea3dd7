/** The pieces a rendered entry is made of, by what they show, and the ways an entry can be shown. */

export type PieceKind = 'user' | 'pasted' | 'assistant' | 'toolCalls' | 'toolOutput' | 'summary' | 'labels' | 'markers' | 'notes';

export interface Piece {
  kind: PieceKind;
  text: string;
}

/** The ways one entry can be shown, smallest first. */
export type Variants = Piece[][];

export const length = (pieces: readonly Piece[]): number => pieces.reduce((n, p) => n + p.text.length, 0);
export const outputChars = (pieces: readonly Piece[]): number => pieces.reduce((n, p) => n + (p.kind === 'toolOutput' ? p.text.length : 0), 0);
