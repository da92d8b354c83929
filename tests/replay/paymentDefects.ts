// The money defects an outside probe found, replayed over HTTP against a running server and its
// sandbox gateway (the hosted page paid as a parent pays it): a checkout cancelled and then paid, one
// application paid by two methods, pay later then the whole balance then the application's own
// pay-now, and the whole balance from two tabs. Each must end with one charge (or none), every charge
// posted. Uses the demo parents Amara Mensah (Little Sprouts Preschool, paid now or later) and Linh
// Nguyen (a balance to pay).
import { testCardNumber } from '../../scripts/lib/cards';

type Result = { ok: boolean; detail: string };
type Json = Record<string, any>;

const AMARA = { appName: 'brightpath', email: 'amara.mensah@example.com', password: 'Sunshine#2026' };
const LINH = { appName: 'northridge', email: 'linh.nguyen@example.ca', password: 'Maple#Leaf2026' };

// a run of its own card numbers, so that a replay against the same server twice trips no velocity filter
let cards = Math.floor(Math.random() * 1e6);
const cardNumber = () => testCardNumber(++cards);
const key = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

class Parent {
  constructor(
    private base: string,
    private token: string,
    private version: string,
    readonly payer: Json,
  ) {}
  static async signIn(base: string, who: typeof AMARA, payer: Json): Promise<Parent> {
    const version = ((await (await fetch(`${base}/api/Customer/version?sourceApp=parentportal`)).json()) as Json).releaseVersion as string;
    const res = await fetch(`${base}/api/Authentication/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
    if (res.status !== 200) throw new Error(`cannot sign in as ${who.email}: ${res.status}`);
    return new Parent(base, ((await res.json()) as Json).token, version, payer);
  }
  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${this.base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'x-release-version': this.version, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Json };
  }
  async balance(): Promise<number> {
    return (await this.call('GET', '/Billing/account-summary')).json.currentBalance as number;
  }
  async paymentsReceived(): Promise<number> {
    const r = await this.call('GET', '/Billing/payments-received');
    return Array.isArray(r.json) ? r.json.length : 0;
  }
  checkout(body: Json) {
    return this.call('POST', '/Billing/payment/checkout', { ...this.payer, ...body });
  }
  /** the parent's return from the gateway's redirect */
  async returns(gatewayCode: number, location: string | null) {
    if (!location) return null;
    const q = Object.fromEntries(new URL(location).searchParams);
    return (await this.call('POST', '/Billing/payment/result', { gatewayCode, checkout: q.checkout, transaction: q.transaction, status: q.status, sig: q.sig })).json;
  }
  /** An application of one child for Little Sprouts Preschool, submitted; answers its key. */
  async submitPreschool(childName: string): Promise<string> {
    const list = await this.call('GET', '/Registration/programperiods/list');
    if (!Array.isArray(list.json)) throw new Error(`the programs list: ${list.status} ${JSON.stringify(list.json).slice(0, 200)}`);
    const pp = (list.json as Json[]).find((p) => p.programPeriod === 'Little Sprouts Preschool');
    if (!pp) throw new Error('Little Sprouts Preschool is not offered');
    const kids = (await this.call('GET', '/Demographics/children')).json as unknown as Json[];
    const child = kids.find((k) => `${k.firstName} ${k.lastName}` === childName || k.firstName === childName.split(' ')[0]);
    if (!child) throw new Error(`no child ${childName}`);
    const { key: appKey } = (await this.call('POST', '/ParentApplication/application/start', { programPeriodID: pp.programPeriodID })).json;
    await this.call('PUT', `/ParentApplication/application/children?key=${appKey}`, { childIDs: [child.childID] });
    const offer = (await this.call('GET', `/ParentApplication/children/activities/${child.childID}?key=${appKey}`)).json;
    const act = offer.activities[0];
    const enrol = await this.call('PUT', `/ParentApplication/application/enrollment?key=${appKey}`, {
      children: [{ prChildID: child.childID, siteID: act.siteID, selections: [{ activityID: act.activityID, weekStart: null, daysOfWeek: act.daysOfWeek, date: null }] }],
      enrollmentOption: 'Y',
    });
    if (enrol.status !== 200) throw new Error(`enrolment step: ${enrol.status} ${JSON.stringify(enrol.json).slice(0, 200)}`);
    await this.call('PUT', `/ParentApplication/application/fee?key=${appKey}`, { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] });
    const submit = await this.call('POST', `/ParentApplication/application/submit?key=${appKey}`);
    if (submit.status !== 200) throw new Error(`submit: ${submit.status} ${JSON.stringify(submit.json).slice(0, 200)}`);
    return appKey;
  }
}

const payCard = (url: string) => fetch(url, { method: 'POST', body: new URLSearchParams({ name: 'Replay Parent', number: cardNumber(), expiry: '12/30', cvv: '123' }), redirect: 'manual' });
const payBank = (url: string) => fetch(url, { method: 'POST', body: new URLSearchParams({ name: 'Replay Parent', routing: '021000021', account: String(100000000 + (++cards % 1e8)), accountType: 'checking' }), redirect: 'manual' });

/** Runs the payment reproductions; `check` records each as the replay's other defects are. */
export async function replayPaymentDefects(base: string, check: (defect: number, title: string, run: () => Promise<Result>) => Promise<void>, first: number): Promise<void> {
  const amaraPayer = { paidByFamilyMemberID: -1, firstName: 'Amara', lastName: 'Mensah', streetAddress: '18 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0190', email: 'amara.mensah@example.com' };
  const linhPayer = { paidByFamilyMemberID: -1, firstName: 'Linh', lastName: 'Nguyen', streetAddress: '77 Maple Avenue', city: 'Toronto', stateCode: 'ON', zip: 'M4B 1B3', homecellphone: '(416)555-0150', email: 'linh.nguyen@example.ca' };

  await check(first, 'a checkout cancelled and then paid on its still open page charges nothing', async () => {
    const amara = await Parent.signIn(base, AMARA, amaraPayer);
    const before = await amara.paymentsReceived();
    const start = await amara.checkout({ idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '7.00' });
    if (start.status !== 200) return { ok: false, detail: `checkout ${start.status}` };
    const cancel = await fetch(`${start.json.checkoutUrl}/cancel`, { redirect: 'manual' });
    const result = await amara.returns(1, cancel.headers.get('location'));
    const paid = await payCard(start.json.checkoutUrl);
    if (paid.status === 303) await amara.returns(1, paid.headers.get('location'));
    const after = await amara.paymentsReceived();
    return { ok: result?.status === 'CANCELLED' && paid.status !== 303 && after === before, detail: `cancel ${result?.status}; paying the page afterwards: ${paid.status}; payments ${before} -> ${after}` };
  });

  await check(first + 1, 'one application paid by card and by bank account is charged once', async () => {
    const amara = await Parent.signIn(base, AMARA, amaraPayer);
    const appKey = await amara.submitPreschool('Ada Mensah');
    const before = await amara.paymentsReceived();
    const card = await amara.checkout({ applicationKey: appKey, paymentMethodCode: 'CCD' });
    const bank = await amara.checkout({ applicationKey: appKey, paymentMethodCode: 'ECH' });
    const pages = await Promise.all([card.status === 200 ? payCard(card.json.checkoutUrl) : null, bank.status === 200 ? payBank(bank.json.checkoutUrl) : null]);
    const charged = pages.filter((p) => p?.status === 303).length;
    if (pages[0]?.status === 303) await amara.returns(1, pages[0].headers.get('location'));
    if (pages[1]?.status === 303) await amara.returns(2, pages[1].headers.get('location'));
    const after = await amara.paymentsReceived();
    return { ok: charged === 1 && after === before + 1, detail: `card checkout ${card.status}, bank checkout ${bank.status}; pages that took a payment: ${charged}; payments ${before} -> ${after}` };
  });

  await check(first + 2, "pay later, the whole balance, then the application's own pay-now: charged once", async () => {
    const amara = await Parent.signIn(base, AMARA, amaraPayer);
    const appKey = await amara.submitPreschool('Ben Mensah');
    await amara.call('POST', `/ParentApplication/application/pay-later?key=${appKey}`);
    const whole = await amara.checkout({ idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
    if (whole.status !== 200) return { ok: false, detail: `balance checkout ${whole.status}` };
    const paid = await payCard(whole.json.checkoutUrl);
    await amara.returns(1, paid.headers.get('location'));
    const again = await amara.checkout({ applicationKey: appKey, paymentMethodCode: 'CCD' });
    let second = 'not started';
    if (again.status === 200) second = String((await payCard(again.json.checkoutUrl)).status);
    const balance = await amara.balance();
    return { ok: again.status === 409 && balance >= 0, detail: `the application's pay-now after the balance was paid: ${again.status} (its page: ${second}); balance ${balance}` };
  });

  await check(first + 3, 'the whole balance from two tabs is charged once', async () => {
    const linh = await Parent.signIn(base, LINH, linhPayer);
    const before = await linh.paymentsReceived();
    const owed = await linh.balance();
    const [one, two] = await Promise.all([linh.checkout({ idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance' }), linh.checkout({ idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance' })]);
    const opened = [one, two].filter((x) => x.status === 200);
    const pages = [];
    for (const o of opened.reverse()) pages.push(await payCard(o.json.checkoutUrl));
    for (const p of pages) if (p.status === 303) await linh.returns(1, p.headers.get('location'));
    const after = await linh.paymentsReceived();
    const balance = await linh.balance();
    return { ok: after === before + 1 && balance === 0, detail: `two tabs: checkouts ${one.status}, ${two.status}; pages that took a payment ${pages.filter((p) => p.status === 303).length}; balance ${owed} -> ${balance}` };
  });
}
