// Weekday chips of a card entry (spec 2.11, 9): the seven codes in order, weekend ones only when offered.
import { describe, expect, it } from 'vitest';
import { weekdayChips } from '../../../src/runtime/kinds/CardEntries';

describe('weekday chips', () => {
  it('draws the seven spec codes from Sunday when weekend days are offered', () => {
    expect(weekdayChips(['M', 'SA'], true)).toEqual([
      { day: 'S', selected: false },
      { day: 'M', selected: true },
      { day: 'T', selected: false },
      { day: 'W', selected: false },
      { day: 'TH', selected: false },
      { day: 'F', selected: false },
      { day: 'SA', selected: true },
    ]);
  });
  it('leaves Sunday and Saturday out otherwise, and reads a missing list as no day', () => {
    expect(weekdayChips(['T', 'TH'], false).map((c) => `${c.day}${c.selected ? '+' : ''}`)).toEqual(['M', 'T+', 'W', 'TH+', 'F']);
    expect(weekdayChips(null, false).every((c) => !c.selected)).toBe(true);
    expect(weekdayChips('M,T', true).some((c) => c.selected)).toBe(false);
  });
});
