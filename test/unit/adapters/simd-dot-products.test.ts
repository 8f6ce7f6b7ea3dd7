/** The WebAssembly SIMD dot products: the sums a plain loop gives, to float32 precision. */
import { describe, expect, it } from 'vitest';
import { createDotProducts } from '../../../src/adapters/simd-dot-products.js';
import { seededRandom } from '../../support/seeded-vectors.js';

describe('createDotProducts', () => {
  it.each([4, 16, 384, 1024])('gives each row\'s dot product with the query, %i dimensions', (dimension) => {
    const rows = 37;
    const dots = createDotProducts(rows, dimension);
    expect(dots).not.toBeNull();
    const next = seededRandom(dimension);
    for (let i = 0; i < rows * dimension; i += 1) dots!.vectors[i] = next();
    for (let round = 0; round < 2; round += 1) {
      const query = Float32Array.from({ length: dimension }, next);
      const products = dots!.compute(query);
      expect(products).toHaveLength(rows);
      for (let r = 0; r < rows; r += 1) {
        let sum = 0;
        for (let k = 0; k < dimension; k += 1) sum += dots!.vectors[r * dimension + k]! * query[k]!;
        expect(Math.abs(products[r]! - sum)).toBeLessThan(1e-4);
      }
    }
  });

  it('gives the dot products of a range of rows only', () => {
    const dimension = 8;
    const dots = createDotProducts(6, dimension)!;
    for (let r = 0; r < 6; r += 1) dots.vectors.fill(r + 1, r * dimension, (r + 1) * dimension);
    const query = new Float32Array(dimension).fill(1);
    expect([...dots.compute(query, 2, 3)]).toEqual([24, 32, 40]);
    expect([...dots.compute(query, 5, 1)]).toEqual([48]);
    expect(dots.compute(query, 6, 0)).toHaveLength(0);
    expect(() => dots.compute(query, 4, 3)).toThrow(RangeError);
  });

  it('answers for no rows, and declines a dimension that is not a multiple of 4', () => {
    expect(createDotProducts(0, 8)!.compute(new Float32Array(8))).toHaveLength(0);
    expect(createDotProducts(10, 6)).toBeNull();
  });
});
