// A provider's change-of-schedule policy, from provider.json `changeSchedule` (checked on start
// against schemas/meta/provider.schema.json): the notice, the days a change may take effect on, the
// free changes and the fee after them. The rules that read it are rules/changeSchedule.rules.json,
// the arithmetic src/engine/changeSchedule.ts.
import type { ProviderRecord } from './providerRecord';
import { DEFAULT_CHANGE_POLICY, type ChangePolicy } from '../src/engine/changeSchedule';

/** The change policy of a checked record, defaults filled in (no notice, any day, every change free). */
export function changePolicyOf(given: ProviderRecord['changeSchedule']): ChangePolicy {
  if (!given) return { ...DEFAULT_CHANGE_POLICY };
  return {
    minimumNoticeDays: given.minimumNoticeDays ?? DEFAULT_CHANGE_POLICY.minimumNoticeDays,
    effectiveDates: given.effectiveDates ?? DEFAULT_CHANGE_POLICY.effectiveDates,
    freeChanges: given.freeChanges ?? DEFAULT_CHANGE_POLICY.freeChanges,
    freeChangesPer: given.freeChangesPer ?? DEFAULT_CHANGE_POLICY.freeChangesPer,
    changeFeeCents: given.changeFeeCents ?? DEFAULT_CHANGE_POLICY.changeFeeCents,
  };
}
