// A query parameter the contract declares as a list takes one value, the same name repeated, or one
// empty value for an empty list, which is what the browser's API client sends (src/api/client.ts
// buildQuery). Ticking both optional fees of an application asked for miscCharges twice and was
// refused (400) while the contract said a text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, tokenFor, type TestApp } from './helpers';
import { contractOperations, readContract } from '../../server/contract';
import { ROOT } from '../../server/app';
import { buildQuery } from '../../src/api/client';
import * as s from '../../server/db/schema';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
const ops = contractOperations(readContract(ROOT));
type Json = Record<string, any>;
/** [operation, parameter] of every list in a query */
const LISTS = ops.flatMap((op) => Object.entries<Json>((op.query as Json | undefined)?.properties ?? {}).filter(([, p]) => p.type === 'array').map(([name, p]) => ({ op, name, items: p.items as Json })));

describe('list query parameters in the contract', () => {
  it('a list of scalars, bounded, wherever a screen sends a list', () => {
    expect(LISTS.map((l) => `${l.op.id} ${l.name}`)).toContain('ParentApplication.fees miscCharges');
    for (const l of LISTS) {
      expect(['integer', 'string', 'number', 'boolean'], `${l.op.id} ${l.name}`).toContain(l.items?.type);
      expect((l.op.query as Json).properties[l.name].maxItems, `${l.op.id} ${l.name}`).toBeGreaterThan(0);
    }
  });

  it('the browser sends a list as the name repeated, and an empty list as one empty value', () => {
    expect(buildQuery({ key: 'k', miscCharges: [1, 2] })).toBe('?key=k&miscCharges=1&miscCharges=2');
    expect(buildQuery({ miscCharges: [7] })).toBe('?miscCharges=7');
    expect(buildQuery({ miscCharges: [] })).toBe('?miscCharges=');
  });
});

describe.each(BACKENDS)('list query parameters on %s', (backend) => {
  let t: TestApp;
  let token = '';
  let key = '';
  let misc: { miscChargeID: number; amount: number }[] = [];
  beforeAll(async () => {
    t = await createTestApp(backend);
    token = await tokenFor(t.app, ...AMARA);
    const [summer] = await t.db.handle.db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    const started = await get('POST', '/api/ParentApplication/application/start', { programPeriodID: summer.id });
    key = started.json().key;
    const rows = await t.db.handle.db.select().from(s.miscCharges).where(and(eq(s.miscCharges.programPeriodId, summer.id)));
    misc = rows.map((r) => ({ miscChargeID: r.id, amount: r.amountCents }));
  });
  afterAll(async () => t?.close());

  function get(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  }
  const queryOf = (op: (typeof ops)[number], name: string, values: string) => {
    const q = op.query as Json;
    const required = ((q.required as string[] | undefined) ?? []).filter((n) => n !== name).map((n) => `${n}=${n === 'key' ? key : '1'}`);
    return `${op.url.replace(/:([A-Za-z]+)/g, '1')}?${[...required, values].join('&')}`;
  };

  it('every list parameter takes one value, repeated values and one empty value, and refuses what is not its items', async () => {
    for (const { op, name, items } of LISTS) {
      const a = items.type === 'integer' ? String(misc[0].miscChargeID) : 'a';
      const b = items.type === 'integer' ? String(misc[1].miscChargeID) : 'b';
      for (const values of [`${name}=${a}`, `${name}=${a}&${name}=${b}`, `${name}=`]) {
        const res = await get(op.method as 'GET', queryOf(op, name, values));
        const paths = (res.json().errors ?? []).map((e: { path: string }) => e.path);
        expect(paths.some((p: string) => p.startsWith(`/${name}`)), `${op.id} ${values}: ${res.body.slice(0, 200)}`).toBe(false);
        expect(res.statusCode, `${op.id} ${values}: ${res.body.slice(0, 200)}`).toBe(200);
      }
      if (items.type === 'integer') {
        for (const bad of [`${name}=x`, `${name}=1,2`, `${name}=${a}&${name}=Infinity`, `${name}=-1`]) {
          const res = await get(op.method as 'GET', queryOf(op, name, bad));
          expect(res.statusCode, `${op.id} ${bad}`).toBe(400);
        }
      }
    }
  });

  it('the fee table counts both optional fees ticked, one, and none even when the saved application has them', async () => {
    const fees = async (q: string) => {
      const res = await get('GET', `/api/ParentApplication/fee/charges?key=${key}${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().rows.filter((r: { kind: string }) => r.kind === 'misc').map((r: { regularFee: number }) => r.regularFee).sort();
    };
    const [one, two] = misc;
    expect(await fees(`&miscCharges=${one.miscChargeID}&miscCharges=${two.miscChargeID}`)).toEqual([one.amount, two.amount].sort());
    expect(await fees(`&miscCharges=${two.miscChargeID}`)).toEqual([two.amount]);
    // saved with both, then both unticked: the table shows none
    const saved = await get('PUT', `/api/ParentApplication/application/fee?key=${key}`, { miscCharges: [one.miscChargeID, two.miscChargeID], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await fees('')).toEqual([one.amount, two.amount].sort());
    expect(await fees('&miscCharges=')).toEqual([]);
  });
});
