// The sandbox gateway as its own process for a benchmark that restarts it: the options (secrets, port,
// data file, notification schedule) come as JSON in SANDBOX_BENCH_OPTIONS. SIGTERM closes it (the
// store written, undelivered notifications kept for the next start). POST /bench/flush delivers every
// pending notification now, so the benchmark can read the books once nothing is on its way.
import { buildSandboxGateway, type SandboxOptions } from '../../sandbox-gateway/app';

const { port, ...options } = JSON.parse(process.env.SANDBOX_BENCH_OPTIONS ?? '{}') as SandboxOptions & { port: number };
const gateway = await buildSandboxGateway(options);
gateway.app.get('/bench/alive', async () => ({ alive: true }));
gateway.app.post('/bench/flush', async () => {
  await gateway.flushNotifications();
  return { flushed: true };
});
let closing = false;
process.on('SIGTERM', () => {
  if (closing) return;
  closing = true;
  void gateway.close().finally(() => process.exit(0));
});
await gateway.app.listen({ port, host: '127.0.0.1' });
// ends with the benchmark, even one killed without a shutdown
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    void gateway.close().finally(() => process.exit(0));
  }
}, 2000).unref();
