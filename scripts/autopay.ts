// npm run autopay -- run [--date YYYY-MM-DD] [--provider APP]: the autopay run by hand, on the same
// database as the server (DATABASE_URL, else the embedded database in PGLITE_DIR or .data/pglite; the
// embedded one is one process's at a time, so stop the server first when it runs on it) and through
// the same gateways (PAYMENT_GATEWAYS, else the built-in sandbox on its data file). The server runs
// the same job every day (autopay.run); running it again charges nothing twice. Receipts and notices
// are queued in the outbox, which the server sends.
import { join } from 'node:path';
import { openDb } from '../server/db/index';
import { buildApp, ROOT } from '../server/app';
import { businessClock, isoDay, systemClock } from '../server/clock';
import { DEFAULT_HOST } from '../server/links';
import { gatewaysFromEnv, type GatewaysFromEnv } from '../server/gateways/fromEnv';
import { runAutopayForAll } from '../server/domains/payments/autopay';
import { errorMessage } from '../server/json';

const USAGE = `Usage:
  npm run autopay -- run [--date YYYY-MM-DD] [--provider APP]`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const args = process.argv.slice(2);
const date = option(args, '--date');
const only = option(args, '--provider');
if (args[0] !== 'run' || (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date))) {
  console.error(USAGE);
  process.exit(2);
}

const pgliteDir = process.env.PGLITE_DIR || join(ROOT, '.data', 'pglite');
// the server's gateways, taken as the server takes them (a sandbox already listening, the server's,
// answers with the same secrets)
let payments: GatewaysFromEnv;
try {
  payments = await gatewaysFromEnv({
    root: ROOT,
    host: process.env.HOST || DEFAULT_HOST,
    port: Number(process.env.PORT || 8080),
    pgliteDir,
    production: process.env.NODE_ENV === 'production',
    log: (line) => (/EADDRINUSE/.test(line) ? undefined : console.log(line)),
  });
} catch (err) {
  console.error(errorMessage(err));
  process.exit(1);
}

const handle = await openDb({ databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir });
const app = await buildApp({ db: handle.db, gateways: payments.gateways, publicUrl: process.env.PUBLIC_URL || undefined, logger: { level: process.env.LOG_LEVEL || 'warn' } });
try {
  const today = date ?? isoDay(businessClock(systemClock)());
  const results = await runAutopayForAll(app.deps, today, only ? [only] : undefined);
  if (only && !results.has(only)) {
    console.error(`${only}: no such provider, or it does not bill through the portal (provider.json billing).`);
    process.exitCode = 1;
  }
  for (const [appName, r] of results) {
    console.log(`${appName} ${today}: ${r.charged} charge(s) made (${r.approved} approved, ${r.declined} declined, ${r.pending} awaiting the gateway), ${r.returned} bank return(s), ${r.notScheduled} not possible (no chargeable method), ${r.notices} notice(s) sent.`);
  }
} finally {
  await app.close();
  await handle.close();
  payments.stop();
}
