// The defect replay (tests/replay/defects.ts) against the real server started as the README starts
// it: no development routes, no PUBLIC_URL. Every defect must be refused and the server stay up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './harness';
import { replayDefects } from '../replay/defects';

describe('replay of the hardening defects', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DEV_ROUTES: '', PUBLIC_URL: '' });
  });
  afterAll(async () => server?.stop());

  it('refuses each defect and keeps answering', async () => {
    const results = await replayDefects(server.url);
    console.log(results.map((r) => `${r.ok ? 'fixed' : 'OPEN '} ${r.defect}. ${r.title}: ${r.detail}`).join('\n'));
    expect(results.map((r) => r.defect)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const open = results.filter((r) => !r.ok).map((r) => `${r.defect}. ${r.title}: ${r.detail}`);
    expect(open, server.log()).toEqual([]);
  });
});
