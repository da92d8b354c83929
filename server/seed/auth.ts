// Demo data of the ways in: a family enrolled at Bright Path whose parent has no login yet (Sign Up
// sends her the create-password link) and a parent with a temporary password issued by the provider.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/index';
import * as t from '../db/schema';

export const SIGNUP_DEMO = { appName: 'brightpath', email: 'grace.okafor@example.com' } as const;
export const TEMPORARY_DEMO = { appName: 'brightpath', email: 'tom.baker@example.com', password: 'Temporary#2026' } as const;

export async function seedAuth(db: Db, hash: (pw: string) => Promise<string>): Promise<void> {
  const [p] = await db.select({ id: t.providers.id }).from(t.providers).where(eq(t.providers.appName, 'brightpath'));
  const pid = p.id;
  const [okafor] = await db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10588' }).returning();
  await db.insert(t.adults).values({ providerId: pid, accountId: okafor.id, accountHolder: 1, firstName: 'Grace', lastName: 'Okafor', genderCode: 'F', streetAddress: '41 Elm St', city: 'Springfield', stateCode: 'IL', zip: '62704', cellPhone: '2175550190', email: SIGNUP_DEMO.email });
  const [baker] = await db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10601' }).returning();
  const [tom] = await db.insert(t.adults).values({ providerId: pid, accountId: baker.id, accountHolder: 1, firstName: 'Tom', lastName: 'Baker', genderCode: 'M', streetAddress: '7 Birch Ln', city: 'Springfield', stateCode: 'IL', zip: '62702', cellPhone: '2175550191', email: TEMPORARY_DEMO.email }).returning();
  await db.insert(t.logins).values({ providerId: pid, adultId: tom.id, email: TEMPORARY_DEMO.email, passwordHash: await hash(TEMPORARY_DEMO.password), isTemporaryPassword: true });
}
