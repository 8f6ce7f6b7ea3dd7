import { describe, expect, it } from 'vitest';
import { parseQuestionDate } from '../../../src/search/question-dates.js';

const day = (iso: string) => ({ start: new Date(`${iso}T00:00:00.000Z`), end: new Date(new Date(`${iso}T00:00:00.000Z`).getTime() + 86_400_000) });

describe('parseQuestionDate', () => {
  it('reads a day written in the usual ways', () => {
    expect(parseQuestionDate('what did we decide on 2023-05-07?')).toEqual(day('2023-05-07'));
    expect(parseQuestionDate('What happened on 7 May 2023')).toEqual(day('2023-05-07'));
    expect(parseQuestionDate('notes from the 7th of May, 2023')).toEqual(day('2023-05-07'));
    expect(parseQuestionDate('What did Maria say on May 7, 2023?')).toEqual(day('2023-05-07'));
    expect(parseQuestionDate('on Sept. 30th 2024')).toEqual(day('2024-09-30'));
  });

  it('reads a month as the whole month', () => {
    expect(parseQuestionDate('decisions in March 2024')).toEqual({ start: new Date('2024-03-01T00:00:00.000Z'), end: new Date('2024-04-01T00:00:00.000Z') });
    expect(parseQuestionDate('the 2024-12 release')).toEqual({ start: new Date('2024-12-01T00:00:00.000Z'), end: new Date('2025-01-01T00:00:00.000Z') });
  });

  it('finds no date where there is none, nor in a day that does not exist', () => {
    expect(parseQuestionDate('which port does the api use')).toBeNull();
    expect(parseQuestionDate('on 31 February 2024')).toBeNull();
    expect(parseQuestionDate('error E2024 in build 13')).toBeNull();
  });
});
