// The first-load budget: the JavaScript the sign-in route and Home fetch until they are
// drawn stays within the budget below, gzip, each. A size check of the built portal's scripts, not a timing.
import { describe, expect, it } from 'vitest';
import { withServerAndBrowser } from './kit';
import { measureFirstLoad } from './firstLoad';

// The budget is 190 kB (1 kB = 1,024 bytes), i18next (15 kB) included: it translates from the first
// paint. Only the start namespaces load with the page, the portal's first-load code is one chunk, code
// that runs only after an input, an error or a crash loads then, and library code the first paint
// never runs is left out (react-query, Ark's unused field parts, emotion's hoist-non-react-statics,
// Chakra's preflight, keyframes and global styles: its start-up CSS is built ahead;
// build/patches/README.md). Most of the rest is libraries every first paint runs (React 66 kB,
// Chakra's runtime 42 kB, i18next 15 kB, the query client and jotai 14 kB).
const BUDGET = 190 * 1024;

const e2e = withServerAndBrowser();

describe('first-load budget', () => {
  it('sign-in and Home each fetch at most the budget of gzip JavaScript before they are drawn', async () => {
    const results = await measureFirstLoad(e2e.browser, e2e.server.url);
    expect(results.map((r) => r.route)).toEqual(['sign-in', 'home']);
    for (const r of results) {
      const scripts = [...r.scripts].map(([url, s]) => `${new URL(url).pathname} ${(s.gzip / 1024).toFixed(1)} kB`).join('\n');
      expect(r.gzip, `${r.route}: ${(r.gzip / 1024).toFixed(1)} kB gzip\n${scripts}`).toBeLessThanOrEqual(BUDGET);
      // the entry and its libraries are counted: a measurement that saw no scripts proves nothing
      expect(r.scripts.size).toBeGreaterThan(3);
    }
  });
});
