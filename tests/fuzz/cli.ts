// npm run fuzz -- --cases 20000 [--seed 7] [--postgres]: the long fuzz run on a fresh in-memory
// database (or a fresh PostgreSQL database of TEST_DATABASE_URL), with the figures: cases, answers
// by status, 5xx (each printed with its case), and whether the demo data is unchanged.
import { parseArgs } from 'node:util';
import { createTestApp, tokenFor, MARIA } from '../server/helpers';
import { contractOperations, readContract } from '../../server/contract';
import { ROOT } from '../../server/app';
import { changedTables, ownAccount, snapshotDb } from '../server/snapshot';
import { runFuzz } from './fuzz';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '20000' }, seed: { type: 'string', default: '1' }, postgres: { type: 'boolean', default: false } } });
const t = await createTestApp(values.postgres ? 'postgres' : 'pglite');
try {
  const token = await tokenFor(t.app, ...MARIA);
  // the fuzzer's own account may change by requests the server accepted (2xx); everything else may not
    const own = await ownAccount(t.db.handle.db, MARIA[1]);
    const before = await snapshotDb(t.db.handle.db, own);
  const report = await runFuzz((r) => t.app.inject(r), contractOperations(readContract(ROOT)), { cases: Number(values.cases), seed: Number(values.seed), token });
  const changed = changedTables(before, await snapshotDb(t.db.handle.db, own));
  console.log(`cases: ${report.cases} in ${(report.ms / 1000).toFixed(1)} s (${values.postgres ? 'PostgreSQL' : 'PGlite'}, seed ${values.seed})`);
  console.log(`answers by status: ${Object.entries(report.byStatus).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
  console.log(`5xx: ${report.errors.length}`);
  for (const e of report.errors.slice(0, 20)) console.log(`  #${e.c.n} ${e.c.op} ${e.c.method} ${e.c.url} (${e.c.what}): ${e.status} ${e.body}`);
  console.log(`demo data: ${changed.length ? `CHANGED in ${changed.join(', ')}` : 'unchanged'}`);
  process.exitCode = report.errors.length || changed.length ? 1 : 0;
} finally {
  await t.close();
}
