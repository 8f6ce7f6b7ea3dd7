/** Whole numbers as the pages print them: 100,000. */

// Made when the page's modules load, before `recall ui` prints its URL: the first number formatted
// loads ICU's number data (15-20 ms CPU), which would otherwise fall on the first page asked for.
const WHOLE = new Intl.NumberFormat('en');

export function formatCount(n: number): string {
  return WHOLE.format(n);
}
