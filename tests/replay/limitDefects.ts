// The operations an outside probe found without a limit (30 of 30 accepted from one address):
// starting a checkout, issuing a hand-off keyelement, asking a payment's result, the gateways'
// notifications and redeeming a keyelement. Each is sent from this one address until it answers 429;
// the reproduction holds when a 429 comes (past the operation's limit, sooner when the replay's
// earlier defects spent some of the minute, at most twice the limit when the requests straddle the
// start of a new minute) and nothing answered a server error.
// It spends this address's allowance for a minute, so it runs last.

type Result = { ok: boolean; detail: string };

/** an answer of the overload guard (503 server.errors.overloaded) */
const BUSY = -1;

interface Limited {
  title: string;
  path: string;
  /** the operation's limit a minute from one address */
  max: number;
  signedIn: boolean;
}

const LIMITED: Limited[] = [
  { title: 'starting a checkout', path: '/api/Billing/payment/checkout', max: 30, signedIn: true },
  { title: 'issuing a keyelement', path: '/api/Registration/program/application-token', max: 30, signedIn: true },
  // the result page asks every 2 s while a payment is pending: 30 a minute, so its limit is 60
  { title: "asking a payment's result", path: '/api/Billing/payment/result', max: 60, signedIn: true },
  // every parent's notifications come from a few gateway addresses, with retries
  { title: "a gateway's notification", path: '/api/Billing/payment/notification/1', max: 1200, signedIn: false },
  { title: 'redeeming a keyelement', path: '/api/Registration/program/application-token/details', max: 30, signedIn: false },
];

/** Runs the limits' reproduction; `check` records it as the replay's other defects are. */
export async function replayLimitDefects(base: string, check: (defect: number, title: string, run: () => Promise<Result>) => Promise<void>, first: number, token: string): Promise<void> {
  await check(first, 'checkout, keyelement issue, payment result, notification and keyelement redeem are limited per address', async () => {
    const seen: string[] = [];
    let ok = true;
    for (const op of LIMITED) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(op.signedIn ? { authorization: `Bearer ${token}` } : {}) };
      let limitedAt = 0;
      const serverErrors: number[] = [];
      let busy = 0;
      // the limit the answers say they are counted against (x-ratelimit-limit)
      let countedAgainst = 0;
      // the probe's 30 of 30 were all accepted: past the limit by one must be refused, or by the limit
      // again when the requests straddle the start of a new minute (the count is per fixed minute)
      const batch = op.max > 100 ? 100 : 1;
      const started = Date.now();
      for (let sent = 0; !limitedAt && sent < 2 * op.max + 1; sent += batch) {
        const answers = await Promise.all(
          Array.from({ length: Math.min(batch, 2 * op.max + 1 - sent) }, async () => {
            const res = await fetch(`${base}${op.path}`, { method: 'POST', headers, body: '{}' });
            const text = await res.text();
            countedAgainst = Math.max(countedAgainst, Number(res.headers.get('x-ratelimit-limit')) || 0);
            // a server too busy to answer in time says so (503, overloaded): a refusal, not an error
            return res.status === 503 && text.includes('server.errors.overloaded') ? BUSY : res.status;
          }),
        );
        busy += answers.filter((st) => st === BUSY).length;
        serverErrors.push(...answers.filter((st) => st >= 500 && st !== BUSY));
        const over = answers.indexOf(429);
        if (over >= 0) limitedAt = sent + over + 1;
      }
      const seconds = (Date.now() - started) / 1000;
      // a machine too slow to send the limit within a minute (the notifications' 1,200) never reaches
      // it: the answers still say they are counted against it
      const slow = !limitedAt && countedAgainst === op.max && (2 * op.max + 1) / seconds < (op.max / 60) * 2;
      if ((!limitedAt && !slow) || serverErrors.length) ok = false;
      const errors = `${serverErrors.length ? `, server errors ${[...new Set(serverErrors)].join('/')} x ${serverErrors.length}` : ''}${busy ? `, ${busy} answered busy (503)` : ''}`;
      seen.push(
        `${op.title}: ${limitedAt ? `429 at request ${limitedAt} (limit ${op.max})` : slow ? `counted against ${countedAgainst} a minute, not reached at ${Math.round(((2 * op.max + 1) / seconds) * 60)} a minute here` : `no 429 in ${2 * op.max + 1} (counted against ${countedAgainst || 'no limit'})`}${errors}`,
      );
    }
    return { ok, detail: seen.join('; ') };
  });
}
