// x-fill: choosing an account holder as the payer fills the payer form from the holder's record.
import { describe, expect, it } from 'vitest';
import { fillPatch } from '../../../src/runtime/form/widgets';

const fill = { firstName: 'firstName', streetAddress: 'streetAddress', homecellphone: ['homePhone', 'cellPhone'] };

describe('fillPatch', () => {
  it('takes each field from the record, the first non-empty path of a fallback list', () => {
    expect(fillPatch(fill, { firstName: 'Ana', streetAddress: '9 Pine St', homePhone: '', cellPhone: '2175550199' })).toEqual({ firstName: 'Ana', streetAddress: '9 Pine St', homecellphone: '2175550199' });
    expect(fillPatch(fill, { firstName: 'Ana', streetAddress: '9 Pine St', homePhone: '2175550101', cellPhone: '2175550199' }).homecellphone).toBe('2175550101');
  });

  it('the blank option (no record) clears every filled field', () => {
    expect(fillPatch(fill, undefined)).toEqual({ firstName: undefined, streetAddress: undefined, homecellphone: undefined });
  });
});
