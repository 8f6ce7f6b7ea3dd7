import { Field, FixedSizeList, Float32, Int32, Table, Utf8, makeData, makeVector, tableFromArrays, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { rowsOf, toFloat32 } from '../../../src/adapters/lance-rows.js';

/** Rows as Arrow's own row proxies give them, as plain objects. */
function viaProxies(table: Table): Array<Record<string, unknown>> {
  return table.toArray().map((row: Record<string, unknown>) => Object.fromEntries(table.schema.fields.map((f) => [f.name, row[f.name]])));
}

describe('rowsOf', () => {
  it('reads every column of every batch as Arrow\'s row proxies do', () => {
    const first = tableFromArrays({ id: ['a', 'b'], importance: Float64Array.from([0.5, 0.25]), seen_count: Int32Array.from([1, 7]) });
    const second = tableFromArrays({ id: ['c'], importance: Float64Array.from([1]), seen_count: Int32Array.from([3]) });
    const table = first.concat(second);
    expect(table.batches).toHaveLength(2);
    expect(rowsOf(table)).toEqual(viaProxies(table));
    expect(rowsOf(table)).toEqual([
      { id: 'a', importance: 0.5, seen_count: 1 },
      { id: 'b', importance: 0.25, seen_count: 7 },
      { id: 'c', importance: 1, seen_count: 3 },
    ]);
  });

  it('keeps nulls as nulls, in text and numeric columns alike', () => {
    const table = new Table({
      project_root: vectorFromArray(['/work/app', null, '/tmp/x'], new Utf8()),
      seen_count: vectorFromArray([2, null, 4], new Int32()),
    });
    expect(rowsOf(table)).toEqual([
      { project_root: '/work/app', seen_count: 2 },
      { project_root: null, seen_count: null },
      { project_root: '/tmp/x', seen_count: 4 },
    ]);
  });

  it('hands back vectors that toFloat32 reads exactly', () => {
    const values = Float32Array.from([0.1, 0.2, 0.3, -1, 0, 2.5]);
    const type = new FixedSizeList(3, new Field('item', new Float32(), true));
    const child = makeData({ type: new Float32(), length: values.length, data: values });
    const table = new Table({ vector: makeVector(makeData({ type, length: 2, nullCount: 0, child })) });
    const rows = rowsOf(table);
    expect(rows.map((row) => Array.from(toFloat32(row.vector)))).toEqual([Array.from(values.subarray(0, 3)), Array.from(values.subarray(3))]);
  });

  it('reads an empty answer as no rows', () => {
    expect(rowsOf(tableFromArrays({ id: [] as string[] }))).toEqual([]);
  });
});
