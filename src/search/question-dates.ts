/**
 * A calendar date named in a question ("on 7 May 2023", "May 7, 2023", "2023-05-07", "in March 2024",
 * "2024-03"), as the span of time it covers, in UTC (as memories' created_at are stored). Pure.
 */

export interface DateSpan {
  /** Inclusive. */
  start: Date;
  /** Exclusive. */
  end: Date;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** A month's name or its first three letters ("Sept" too), with an optional dot. */
const MONTH = `(${MONTHS.map((m) => (m === 'september' ? 'sep(?:t(?:ember)?)?' : `${m.slice(0, 3)}(?:${m.slice(3)})?`)).join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

const PATTERNS: Array<{ re: RegExp; read: (m: RegExpExecArray) => [number, number, number | null] }> = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}\\b`, 'i'), read: (m) => [Number(m[3]), monthOf(m[2]), Number(m[1])] },
  { re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+${YEAR}\\b`, 'i'), read: (m) => [Number(m[3]), monthOf(m[1]), Number(m[2])] },
  { re: /\b(\d{4})-(\d{2})\b(?!-)/, read: (m) => [Number(m[1]), Number(m[2]), null] },
  { re: new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, 'i'), read: (m) => [Number(m[2]), monthOf(m[1]), null] },
];

/** The first date the question names, or null. A day that does not exist (31 February) is no date. */
export function parseQuestionDate(question: string): DateSpan | null {
  for (const { re, read } of PATTERNS) {
    const match = re.exec(question);
    if (match === null) continue;
    const [year, month, day] = read(match);
    if (month < 1 || month > 12 || year < 1970 || year > 9999) continue;
    if (day === null) return { start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) };
    const start = new Date(Date.UTC(year, month - 1, day));
    if (start.getUTCDate() !== day) return null;
    return { start, end: new Date(Date.UTC(year, month - 1, day + 1)) };
  }
  return null;
}

function monthOf(name: string | undefined): number {
  const prefix = (name ?? '').toLowerCase().slice(0, 3);
  return MONTHS.findIndex((m) => m.startsWith(prefix)) + 1;
}
