import * as lancedb from '@lancedb/lancedb';
import { benchEmbedder } from './bench/build-store.mjs';
import { BENCH_QUERIES } from './bench/corpus.mjs';
const db = await lancedb.connect(process.argv[2], { readConsistencyInterval: 0 });
const t = await db.openTable('memories');
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)].toFixed(2); };
const vecs = await benchEmbedder.embed(BENCH_QUERIES);
const nss = (await t.query().select(['namespace']).limit(2000).toArray()).map((r) => r.namespace);
const ns = [...new Set(nss)].slice(0, 3);
console.log(ns);
const A = {};
for (let r = 0; r < 3; r++) for (let i = 0; i < vecs.length; i++) {
  const n = ns[i % 3];
  for (const [k, where, maxp] of [
    ['ns+sup unbounded', `namespace IN ('${n}', 'global') AND superseded_by IS NULL`, 0],
    ['ns+sup max80', `namespace IN ('${n}', 'global') AND superseded_by IS NULL`, 80],
    ['ns unbounded', `namespace IN ('${n}', 'global')`, 0],
    ['ns max80', `namespace IN ('${n}', 'global')`, 80],
  ]) {
    const s = performance.now();
    const rows = await t.vectorSearch(vecs[i]).distanceType('cosine').select(['id', '_distance']).where(where).maximumNprobes(maxp).minimumNprobes(80).refineFactor(3).limit(40).toArray();
    (A[k] ??= []).push(performance.now() - s);
    (A[k + ' n'] ??= []).push(rows.length);
  }
  for (const [k, where] of [['text ns+sup', `namespace IN ('${n}', 'global') AND superseded_by IS NULL`], ['text ns', `namespace IN ('${n}', 'global')`]]) {
    const s = performance.now();
    await t.query().fullTextSearch(BENCH_QUERIES[i], { columns: 'content' }).select(['id', '_score']).where(where).limit(40).toArray();
    (A[k] ??= []).push(performance.now() - s);
  }
}
for (const [k, v] of Object.entries(A)) console.log(k.padEnd(22), med(v));
