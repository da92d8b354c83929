// The defect replay (tests/replay/defects.ts) against the real server started as the README starts
// it: no development routes, no PUBLIC_URL. Every defect must be refused and the server stay up; the
// per-address limits (defect 21) last, as they spend this address's allowance for a minute.
import { describe, expect, it } from 'vitest';
import { withServer } from './kit';
import { replayDefects } from '../replay/defects';

describe('replay of the hardening defects', () => {
  const e2e = withServer({ DEV_ROUTES: '', PUBLIC_URL: '' });

  it('refuses each defect and keeps answering', async () => {
    const results = await replayDefects(e2e.server.url, { limits: true });
    console.log(results.map((r) => `${r.ok ? 'fixed' : 'OPEN '} ${r.defect}. ${r.title}: ${r.detail}`).join('\n'));
    expect(results.map((r) => r.defect)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    const open = results.filter((r) => !r.ok).map((r) => `${r.defect}. ${r.title}: ${r.detail}`);
    expect(open, e2e.server.log()).toEqual([]);
  });
});
