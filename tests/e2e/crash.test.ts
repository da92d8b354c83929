// Crash test: the server is killed with SIGKILL while parents write, restarted on the same data, and
// every write it acknowledged (answered 200) is there: on the embedded database (PGlite's folder) and,
// with TEST_DATABASE_URL, on PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiToken, type RunningServer, startServer } from './kit';
import { freshDatabase, type FreshDatabase } from '../server/freshDatabase';

/** Writes contact-us messages from several parallel writers until the server dies; answers the acknowledged ids. */
async function writeUntilKilled(server: RunningServer, token: string, killAfter: number): Promise<number[]> {
  const acked: number[] = [];
  let n = 0;
  let killed = false;
  const writer = async () => {
    for (;;) {
      const i = n++;
      try {
        const res = await fetch(`${server.url}/api/Communication/sendmail`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ subjectID: '1', message: `Crash write ${i}` }),
        });
        if (res.status === 200) acked.push(((await res.json()) as { communicationID: number }).communicationID);
        else if (res.status === 429) continue;
      } catch {
        return; // the connection died with the server
      }
      if (acked.length >= killAfter && !killed) {
        killed = true;
        await server.crash();
      }
    }
  };
  await Promise.all([writer(), writer(), writer(), writer()]);
  return acked;
}

interface Target {
  name: string;
  env: () => Promise<Record<string, string>>;
  cleanup: () => Promise<void>;
}

const targets: Target[] = [];
{
  let dir = '';
  targets.push({
    name: 'PGlite',
    env: async () => {
      dir ||= fs.mkdtempSync(path.join(os.tmpdir(), 'pp-crash-'));
      return { PGLITE_DIR: dir };
    },
    cleanup: async () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  });
}
if (process.env.TEST_DATABASE_URL) {
  let fresh: FreshDatabase | undefined;
  targets.push({
    name: 'PostgreSQL',
    env: async () => {
      fresh ??= await freshDatabase('pp_crash');
      return { DATABASE_URL: fresh.url };
    },
    cleanup: async () => {
      await fresh?.drop();
    },
  });
}

describe.each(targets)('kill -9 during writes on $name', (target) => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await target.cleanup();
  });

  it('keeps every acknowledged write after a restart', { timeout: 240_000 }, async () => {
    // (8 acknowledged messages stay under the provider's limit of messages per hour)
    const env = await target.env();
    const first = await startServer(env);
    servers.push(first);
    const acked = await writeUntilKilled(first, await apiToken(first, 'maria'), 8);
    expect(acked.length).toBeGreaterThanOrEqual(8);

    const second = await startServer(env);
    servers.push(second);
    const token = await apiToken(second, 'maria');
    const res = await fetch(`${second.url}/api/Communication/history?Days=90`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const stored = new Set(((await res.json()) as { communicationID: number }[]).map((h) => h.communicationID));
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
  });
});
