// Prints the first-load JavaScript (gzip) of the sign-in route and of Home, measured in a real
// browser against the built portal (tests/e2e/firstLoad.ts): every script the page fetches until it
// is drawn and the network is idle, and the texts (JSON) it fetches meanwhile. The budget (tests/e2e/budget.test.ts) is 190 kB each.
import { launchBrowser, startServer } from '../tests/e2e/harness';
import { measureFirstLoad, type FirstLoad } from '../tests/e2e/firstLoad';

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function report({ route, scripts, gzip, raw, texts, textsGzip }: FirstLoad) {
  console.log(`${route} route: ${kb(gzip)} gzip, ${gzip} bytes (${kb(raw)} raw) in ${scripts.size} scripts; texts ${kb(textsGzip)} gzip in ${texts.size} files`);
  for (const [url, s] of [...scripts, ...texts].sort((a, b) => b[1].gzip - a[1].gzip)) {
    console.log(`    ${kb(s.gzip).padStart(10)}  ${new URL(url).pathname}`);
  }
}

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const result of await measureFirstLoad(browser, server.url)) report(result);
} finally {
  await browser.close();
  await server.stop();
}
