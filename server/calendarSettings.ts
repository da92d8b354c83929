// The calendar product's settings (spec 2.11 flex dates): provider.json `calendar` is
// { "cancellationWindowDays": n } (checked on start against schemas/meta/provider.schema.json); left
// out or null, no window. The rule flexCalendar.removeReason reads it.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { providerRecordOf, type ProviderRecord } from './providerRecord';

export interface CalendarSettings {
  cancellationWindowDays: number | null;
}

export function calendarSettingsOf(given: ProviderRecord['calendar']): CalendarSettings {
  return { cancellationWindowDays: given?.cancellationWindowDays ?? null };
}

const cache = new Map<string, CalendarSettings>();

export function providerCalendar(root: string, appName: string): CalendarSettings {
  const k = `${root}\u0000${appName}`;
  let found = cache.get(k);
  if (!found) {
    const file = join(root, 'providers', appName, 'provider.json');
    const rec = existsSync(file) ? providerRecordOf(appName, JSON.parse(readFileSync(file, 'utf8'))) : null;
    found = calendarSettingsOf(rec?.calendar);
    cache.set(k, found);
  }
  return found;
}
