// Provider records live in providers/<appName>/provider.json (reviewed like code); on start they are
// written into the providers table, which the services read.
import type { Db } from './db/index';
import { providers, type ProviderLinks } from './db/schema';
import { checkProviderFiles, formatProviderRecordError, type ProviderRecord } from './providerRecord';

export type { ProviderRecord } from './providerRecord';

/**
 * The provider records under root, checked against schemas/meta/provider.schema.json (server/
 * providerRecord.ts): any error stops the start, every one named by file and JSON path.
 */
export function readProviderRecords(root: string): ProviderRecord[] {
  const { records, errors } = checkProviderFiles(root);
  if (errors.length) throw new Error(errors.map(formatProviderRecordError).join('\n'));
  return records;
}

const LINK_KEYS = ['userGuideUrl', 'privacyPolicyUrl'] as const;

/** The links column of a provider record. */
export function linksOf(rec: Pick<ProviderRecord, 'userGuideUrl' | 'privacyPolicyUrl'>): ProviderLinks {
  const out: ProviderLinks = {};
  for (const k of LINK_KEYS) if (rec[k]) out[k] = rec[k];
  return out;
}

export async function syncProviders(db: Db, records: ProviderRecord[]): Promise<void> {
  for (const r of records) {
    const values = { ...r, fieldOptions: r.fieldOptions ?? {}, nativeApps: r.nativeApps ?? {}, links: linksOf(r) };
    await db
      .insert(providers)
      .values(values)
      .onConflictDoUpdate({ target: providers.appName, set: values });
  }
}
