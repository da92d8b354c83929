// npm run seed: reset the demo providers' data (the database the server would choose).
import { join } from 'node:path';
import { openDb } from '../db/index';
import { Passwords, PRODUCTION_ARGON2 } from '../auth';
import { systemClock } from '../clock';
import { ROOT } from '../app';
import { readProviderRecords, syncProviders } from '../providers';
import { seedDemo, DEMO_SIGNINS } from './index';

const handle = await openDb({
  databaseUrl: process.env.DATABASE_URL || undefined,
  pgliteDir: process.env.PGLITE_DIR || join(ROOT, '.data', 'pglite'),
});
try {
  await syncProviders(handle.db, readProviderRecords(ROOT));
  await seedDemo(handle.db, { root: ROOT, passwords: new Passwords(PRODUCTION_ARGON2), clock: systemClock });
  console.log(`Demo data reset (${handle.kind}). Sign-ins:`);
  for (const s of DEMO_SIGNINS) console.log(`  ${s.appName.padEnd(11)} ${s.email.padEnd(26)} ${s.password.padEnd(15)} ${s.role}`);
} finally {
  await handle.close();
}
