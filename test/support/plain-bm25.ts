/**
 * A plain BM25 (k1 1.2, b 0.75) over Porter-stemmed, lower-cased words, no stop words: the baseline a
 * retrieval benchmark measures recall's search against, in the same run.
 */
import { stemmer } from 'stemmer';

const WORD = /[\p{L}\p{N}_]+/gu;

function terms(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => stemmer(m[0]));
}

export interface PlainBm25 {
  /** Ids of the best `limit` documents, best first (ties by id). */
  search(query: string, limit: number): string[];
}

export function buildPlainBm25(docs: ReadonlyArray<{ id: string; content: string }>, k1 = 1.2, b = 0.75): PlainBm25 {
  const postings = new Map<string, Map<number, number>>();
  const lengths = docs.map((doc, i) => {
    const words = terms(doc.content);
    for (const word of words) {
      const list = postings.get(word) ?? new Map<number, number>();
      postings.set(word, list);
      list.set(i, (list.get(i) ?? 0) + 1);
    }
    return words.length;
  });
  const average = lengths.reduce((a, n) => a + n, 0) / Math.max(1, docs.length);
  return {
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const word of new Set(terms(query))) {
        const list = postings.get(word);
        if (list === undefined) continue;
        const idf = Math.log(1 + (docs.length - list.size + 0.5) / (list.size + 0.5));
        for (const [i, tf] of list) {
          const norm = tf + k1 * (1 - b + (b * (lengths[i] ?? 0)) / average);
          scores.set(i, (scores.get(i) ?? 0) + (idf * tf * (k1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, limit)
        .map(([i]) => docs[i]?.id ?? '');
    },
  };
}
