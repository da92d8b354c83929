// Replays a reproduction of each defect an attack from outside found against a running server and says,
// per defect, whether the server now refuses it (4xx, or the route is not reachable) and stays up.
//
//   npx tsx tests/replay/defects.ts http://127.0.0.1:8080 [--no-limits]
//
// It signs in as the demo parents Maria Garcia and Karen Johnson (brightpath), so the server needs the
// demo data; the contacts it creates to reach the limit are dropped again. tests/e2e/replay.test.ts
// runs it in `npm test` against a server started as the README starts it (no DEV_ROUTES, no PUBLIC_URL).
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { multipart, pngBomb } from '../fixtures/images/index';
import { replayPaymentDefects } from './paymentDefects';
import { replayLimitDefects } from './limitDefects';

export interface DefectResult {
  defect: number;
  title: string;
  ok: boolean;
  detail: string;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
  json(): any;
}

/** A raw HTTP request (node:http, so a forged Host header goes out as given). */
function send(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  const url = new URL(path, base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, ms: performance.now() - started, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const json = (body: unknown, token?: string) => ({
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

const MARIA = { appName: 'brightpath', email: 'maria.garcia@example.com', password: 'Sunshine#2026' };

export interface ReplayOptions {
  /**
   * Also the per-address limits (defect 21): it spends this address's allowance of checkouts,
   * keyelements, results and notifications for a minute, so it runs last, and only when asked.
   */
  limits?: boolean;
}

export async function replayDefects(base: string, opts: ReplayOptions = {}): Promise<DefectResult[]> {
  const results: DefectResult[] = [];
  const up = async () => (await send(base, 'GET', '/api/Customer/version?sourceApp=parentportal').catch(() => null))?.status === 200;
  const is4xx = (s: number) => s >= 400 && s < 500;
  async function check(defect: number, title: string, run: () => Promise<{ ok: boolean; detail: string }>) {
    let r: { ok: boolean; detail: string };
    try {
      r = await run();
    } catch (err) {
      r = { ok: false, detail: `threw ${(err as Error).message}` };
    }
    const alive = await up();
    results.push({ defect, title, ok: r.ok && alive, detail: alive ? r.detail : `${r.detail}; the server stopped answering` });
  }

  const signIn = await send(base, 'POST', '/api/Authentication/login', json(MARIA));
  if (signIn.status !== 200) throw new Error(`cannot sign in as ${MARIA.email}: ${signIn.status} ${signIn.text}`);
  const token = signIn.json().token as string;

  await check(1, 'the development outbox is not reachable', async () => {
    const r = await send(base, 'GET', '/api/dev/outbox');
    return { ok: r.status === 404, detail: `GET /api/dev/outbox: ${r.status}` };
  });

  await check(2, 'links never follow the Host header', async () => {
    const r = await send(base, 'POST', '/api/Authentication/forgot-password', { ...json({ appName: 'brightpath', email: 'karen.johnson@example.com' }), headers: { ...json({}).headers, host: 'evil.example' } });
    const outbox = await send(base, 'GET', '/api/dev/outbox');
    if (outbox.status !== 200) return { ok: r.status < 500, detail: `forgot password with Host evil.example: ${r.status}; the mails are not reachable to read` };
    const leaked = outbox.text.includes('evil.example');
    return { ok: r.status < 500 && !leaked, detail: `forgot password with Host evil.example: ${r.status}; ${leaked ? 'a mail links to evil.example' : 'no mail links to evil.example'}` };
  });

  await check(3, 'a 20,000 x 20,000 PNG is refused before decoding', async () => {
    const kids = (await send(base, 'GET', '/api/Demographics/children', { headers: { authorization: `Bearer ${token}` } })).json() as { childID: number }[];
    const m = multipart('bomb.png', pngBomb(20_000, 20_000));
    const answers = await Promise.all(
      [0, 1, 2, 3].map(() =>
        send(base, 'POST', `/api/Demographics/children/${kids[0].childID}/photo`, { headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType }, body: m.body }),
      ),
    );
    const slowest = Math.max(...answers.map((a) => a.ms));
    return { ok: answers.every((a) => is4xx(a.status)), detail: `4 bombs at once: ${answers.map((a) => a.status).join(', ')} within ${Math.round(slowest)} ms` };
  });

  await check(4, 'a NUL byte in a text is bad input', async () => {
    const r = await send(base, 'POST', '/api/Communication/sendmail', json({ subjectID: 'Hello\u0000', message: 'NUL' }, token));
    return { ok: is4xx(r.status), detail: `NUL in the contact-us subject: ${r.status}` };
  });

  await check(5, 'ids of 2^31 and above are bad input', async () => {
    const h = { headers: { authorization: `Bearer ${token}` } };
    const path = await send(base, 'GET', '/api/Demographics/adults/details/2147483648', h);
    const query = await send(base, 'GET', '/api/Demographics/adults?AdultID=4294967296', h);
    const body = await send(base, 'POST', '/api/Demographics/adults/pin', json({ mode: 'edit', pin: '1234', adultIDs: [2147483648] }, token));
    return { ok: [path, query, body].every((a) => is4xx(a.status)), detail: `path ${path.status}, query ${query.status}, body ${body.status}` };
  });

  await check(6, 'a body nested 100,000 deep is refused without signing in', async () => {
    const r = await send(base, 'POST', '/api/Authentication/login', { headers: { 'content-type': 'application/json' }, body: '['.repeat(100_000) + ']'.repeat(100_000) });
    return { ok: is4xx(r.status), detail: `100,000 nested arrays: ${r.status}` };
  });

  await check(7, 'repeated wrong passwords of an e-mail are slowed down', async () => {
    // an e-mail without a login: the server cannot tell, and must slow it down all the same
    const email = `replay.${Date.now()}@example.com`;
    const answers: Answer[] = [];
    for (let i = 0; i < 4; i++) answers.push(await send(base, 'POST', '/api/Authentication/login', json({ appName: 'brightpath', email, password: `Wrong#Guess${i}x` })));
    const fourth = answers[3];
    return {
      ok: answers.every((a) => is4xx(a.status)) && fourth.ms >= 400,
      detail: `answers ${answers.map((a) => a.status).join(', ')}; the fourth took ${Math.round(fourth.ms)} ms`,
    };
  });

  await check(8, 'the sign-in answer is not stored by caches', async () => {
    const r = await send(base, 'POST', '/api/Authentication/login', json(MARIA));
    const cc = String(r.headers['cache-control'] ?? '');
    return { ok: r.status === 200 && /no-store/.test(cc), detail: `sign-in ${r.status}, Cache-Control: ${cc || '(none)'}` };
  });

  await check(9, 'contacts per account are limited', async () => {
    const h = { headers: { authorization: `Bearer ${token}` } };
    const blank = (await send(base, 'GET', '/api/Demographics/adults/details/0', h)).json();
    const contact = {
      ...blank,
      lastName: 'Replay',
      homePhone: '2175550999',
      cellPhone: '',
      relationships: blank.relationships.map((r: object, i: number) => ({ ...r, relationshipId: i === 0 ? 1 : 0, isLivesWith: i === 0 })),
      userDefinedFields: blank.userDefinedFields.map((u: { fieldName: string }) => ({ ...u, value: u.fieldName.startsWith('UDDro') ? 1 : u.fieldName.startsWith('UDRad') ? true : 'answer' })),
    };
    const created: number[] = [];
    let last: Answer | undefined;
    try {
      for (let i = 0; i < 200; i++) {
        last = await send(base, 'POST', '/api/Demographics/adults/0', json({ ...contact, firstName: `Replay${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}` }, token));
        if (last.status !== 200) break;
        created.push(last.json().adultID);
      }
    } finally {
      for (const id of created) await send(base, 'POST', `/api/Demographics/adults/${id}/Delete`, json({ confirmCancel: true }, token));
    }
    return { ok: last !== undefined && last.status === 429, detail: `${created.length} contacts created, then ${last?.status} (${last?.json().key ?? ''})` };
  });

  await check(10, 'the Content Security Policy allows no inline or eval’d script', async () => {
    const r = await send(base, 'GET', '/api/Customer/version?sourceApp=parentportal');
    const csp = String(r.headers['content-security-policy'] ?? '');
    const script = /script-src 'self'(;|$)/.test(csp) && !csp.includes('unsafe-eval');
    const inlineStyles = /style-src[^;]*'unsafe-inline'/.test(csp);
    return { ok: script, detail: `script-src self only: ${script}; style-src 'unsafe-inline': ${inlineStyles ? 'still allowed (run-time styles, see ARCHITECTURE.md)' : 'gone'}` };
  });

  await check(11, 'a CR/LF in the contact-us subject is refused or stored on one line', async () => {
    const r = await send(base, 'POST', '/api/Communication/sendmail', json({ subjectID: 'Replay\r\nBcc: someone@example.com', message: 'Header test' }, token));
    if (r.status !== 200) return { ok: is4xx(r.status), detail: `subject with CR/LF: ${r.status}` };
    const history = (await send(base, 'GET', '/api/Communication/history', { headers: { authorization: `Bearer ${token}` } })).json() as { communicationID: number; subject: string }[];
    const mine = history.find((h) => h.communicationID === r.json().communicationID);
    const oneLine = mine !== undefined && !/[\r\n]/.test(mine.subject);
    return { ok: oneLine, detail: `subject with CR/LF: ${r.status}, stored as ${JSON.stringify(mine?.subject)}` };
  });

  await check(12, 'a hand-off keyelement signs no other browser in (login CSRF)', async () => {
    // karen asks for keyelements for her own account, as an attacker would, and lures browsers to open them
    const karen = await send(base, 'POST', '/api/Authentication/login', json({ ...MARIA, email: 'karen.johnson@example.com' }));
    if (karen.status !== 200) return { ok: false, detail: `cannot sign in as karen.johnson@example.com: ${karen.status}` };
    const karenToken = karen.json().token as string;
    const accountID = karen.json().session.accountID as number;
    const list = await send(base, 'GET', `/api/Registration/programperiods/list?AccountID=${accountID}`, { headers: { authorization: `Bearer ${karenToken}` } });
    const programs = list.status === 200 ? (list.json() as { programPeriodID: number }[]) : [];
    if (!programs.length) throw new Error(`karen's programs list: ${list.status} ${list.text.slice(0, 200)}`);
    const programPeriodID = programs[0].programPeriodID;
    const keyelement = async () => {
      const tokenString = JSON.stringify({ applicationName: 'brightpath', programPeriodID, accountID, menu: '/programlist' });
      const r = await send(base, 'POST', '/api/Registration/program/application-token', json({ product: 'parentapplication', programPeriodID, accountID, ApplicationTokenString: tokenString }, karenToken));
      if (r.status !== 200) throw new Error(`karen's keyelement: ${r.status} ${r.text}`);
      return r.json().keyelement as string;
    };
    const redeem = async (browserToken?: string) => send(base, 'POST', '/api/Registration/program/application-token/details', json({ appName: 'brightpath', keyelement: await keyelement(), product: 'parentapplication' }, browserToken));
    const say = (a: Answer) => (a.status === 200 ? `200, signed in to account ${a.json().accountID}` : `${a.status} (${a.json().key ?? ''})`);
    // opened in maria's browser (the application page sends her portal session), then in one signed in nowhere
    const inMarias = await redeem(token);
    const inNone = await redeem();
    return { ok: is4xx(inMarias.status) && is4xx(inNone.status), detail: `karen's keyelement in maria's browser: ${say(inMarias)}; in a signed-out browser: ${say(inNone)}` };
  });

  await check(13, 'a lone surrogate in a payer name, a street, a city or a message is bad input', async () => {
    const payer = { paidByFamilyMemberID: -1, firstName: 'Ana\ud800', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
    const pay = await send(base, 'POST', '/api/Billing/payment/checkout', json({ ...payer, paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '1.00', idempotencyKey: 'f'.repeat(32) }, token));
    const street = await send(base, 'POST', '/api/Billing/payment/checkout', json({ ...payer, firstName: 'Ana', streetAddress: '\udc00 Oak', paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '1.00', idempotencyKey: 'e'.repeat(32) }, token));
    const city = await send(base, 'POST', '/api/Billing/payment/checkout', json({ ...payer, firstName: 'Ana', city: 'Spring\ud800field', paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '1.00', idempotencyKey: 'd'.repeat(32) }, token));
    const mail = await send(base, 'POST', '/api/Communication/sendmail', json({ subjectID: '1', message: 'Hello \ud83d' }, token));
    const all = [pay, street, city, mail];
    return { ok: all.every((a) => a.status === 400), detail: `payer name ${pay.status}, street ${street.status}, city ${city.status}, message ${mail.status} (${mail.json().key ?? ''})` };
  });

  await check(14, '"Infinity", "1e999" and 9999999999999 as an id are bad input', async () => {
    const h = { headers: { authorization: `Bearer ${token}` } };
    const answers = await Promise.all([
      send(base, 'GET', '/api/Billing/payment/receipt/Infinity', h),
      send(base, 'GET', '/api/Billing/payment/receipt/1e999', h),
      send(base, 'GET', '/api/Billing/payment/receipt/9999999999999', h),
      send(base, 'GET', '/api/Demographics/adults?AdultID=-Infinity', h),
      send(base, 'POST', '/api/ParentApplication/application/start', json({ programPeriodID: 'Infinity' }, token)),
      send(base, 'POST', '/api/ParentApplication/application/start', { headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"programPeriodID":1e999}' }),
    ]);
    return { ok: answers.every((a) => a.status === 400), detail: `receipt Infinity, 1e999, 9999999999999; adults -Infinity; start "Infinity", 1e999: ${answers.map((a) => a.status).join(', ')}` };
  });

  await check(15, 'a list query parameter takes its name repeated (both optional fees ticked)', async () => {
    // no application has this key: the answer is 404 once the list is read, 400 when it was refused
    const key = '0'.repeat(32);
    const h = { headers: { authorization: `Bearer ${token}` } };
    const two = await send(base, 'GET', `/api/ParentApplication/fee/charges?key=${key}&miscCharges=1&miscCharges=2`, h);
    const one = await send(base, 'GET', `/api/ParentApplication/fee/charges?key=${key}&miscCharges=1`, h);
    return { ok: two.status === 404 && one.status === 404, detail: `miscCharges twice: ${two.status} (${two.json().key ?? ''}), once: ${one.status}` };
  });

  await check(16, 'an other amount above the provider\'s maximum is refused before the gateway', async () => {
    const h = { headers: { authorization: `Bearer ${token}` } };
    const fee = (amount: string) => send(base, 'GET', `/api/Billing/payment/processing-fee?AmountChoice=other&Amount=${amount}`, h);
    const [big, small] = [await fee('1000000.00'), await fee('25.00')];
    const max = (await send(base, 'GET', '/api/Billing/payment-options', h)).json().maxPaymentText;
    return { ok: big.status === 200 && big.json().valid === false && small.json().valid === true, detail: `1,000,000.00 payable: ${big.json().valid}; 25.00 payable: ${small.json().valid}; the most: ${max}` };
  });

  // the money defects: a charge without a posting, a debt charged twice
  await replayPaymentDefects(base, check, 17);

  if (opts.limits) await replayLimitDefects(base, check, 21, token);

  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'http://127.0.0.1:8080';
  // the command line replays every defect, the limits last (the allowance spent is this address's)
  const results = await replayDefects(base, { limits: !process.argv.includes('--no-limits') });
  for (const r of results) console.log(`${r.ok ? 'fixed ' : 'OPEN  '} ${String(r.defect).padStart(2)}. ${r.title}: ${r.detail}`);
  const open = results.filter((r) => !r.ok).length;
  console.log(open ? `${open} defect(s) reproduce` : `all ${results.length} defects refused; the server still answers`);
  process.exit(open ? 1 : 0);
}
