// Provider-supplied texts in the parent's language (spec 1, 2.8): master data, user-defined and
// medical captions and options, program titles and descriptions, alerts, bulletins, events and form
// names are answered in the request's language, with the provider's default-language text where a
// language was not supplied. The demo providers supply every text in es, pt and vi.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, tokenFor, MARIA, LINH, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { englishTextsNotIn } from '../../server/seed/texts';
import { inLanguage, textIn } from '../../server/providerTexts';

/** every string anywhere in an answer */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

describe('inLanguage and textIn', () => {
  const row = {
    id: 1,
    caption: 'Size',
    translations: { caption: { es: 'Talla', vi: ' ' } },
    values: [{ idValue: 1, itemValue: 'Small', translations: { itemValue: { es: 'Pequeña' } } }, { idValue: 2, itemValue: 'Large' }],
    at: new Date(0),
  };
  it('answers the language supplied and the default-language text otherwise, without the translations', () => {
    expect(inLanguage(row, 'es')).toEqual({ id: 1, caption: 'Talla', values: [{ idValue: 1, itemValue: 'Pequeña' }, { idValue: 2, itemValue: 'Large' }], at: new Date(0) });
    // pt not supplied, vi blank: the default language
    expect(inLanguage(row, 'pt').caption).toBe('Size');
    expect(inLanguage(row, 'vi').caption).toBe('Size');
    expect(textIn(row, 'caption', 'es')).toBe('Talla');
    expect(textIn(row, 'caption', 'en')).toBe('Size');
    expect(textIn({ caption: 'Size', translations: null }, 'caption', 'es')).toBe('Size');
  });
});

describe.each(BACKENDS)('provider texts in the parent language on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let linh: string;
  const get = (url: string, token: string, lang: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    linh = await tokenFor(t.app, ...LINH);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function answers(token: string, lang: string) {
    const db = t.db.handle.db;
    const [kid] = await db.select().from(s.children).where(eq(s.children.firstName, token === maria ? 'Sofia' : 'An'));
    const [holder] = await db.select().from(s.adults).where(eq(s.adults.firstName, token === maria ? 'Maria' : 'Linh'));
    const urls = [
      '/api/Demographics/masterdata/relationship',
      '/api/Demographics/masterdata/gradelevel',
      '/api/Customer/program/absence-reason?ShowInParentPortal=true',
      `/api/Demographics/adults/details/${holder.id}`,
      `/api/Demographics/children/${kid.id}/medical-information`,
      '/api/Demographics/children',
      '/api/Demographics/adults',
      '/api/Communication/alerts/home',
      `/api/Communication/PARENT/alerts/login?appName=${token === maria ? 'brightpath' : 'northridge'}`,
      '/api/Communication/bulletin',
      '/api/Communication/forms',
      '/api/Communication/calendar-events/parent',
      '/api/Registration/programperiods/list?otherDistrict=true',
      '/api/Registration/children/activities',
      // the master data and communication texts of spec 7.2 and 7.4
      ...['allergies', 'disabilities', 'medical-conditions', 'special-needs', 'medication', 'udfields', 'adult-fields', 'child-fields'].map((m) => `/api/Demographics/masterdata/${m}`),
      ...['gender', 'marital-status', 'primary-language', 'meal-eligibility', 'tshirt-size', 'transportation-mode'].map((m) => `/api/Demographics/masterdata/${m}`),
      `/api/Demographics/adults/${holder.id}/children`,
      `/api/Demographics/children/${kid.id}/adults`,
      '/api/Communication/Subjects',
      '/api/Communication/customtext/prepare-onscreen?contenttype=CONTACT_US',
    ];
    const out: Record<string, unknown> = {};
    for (const url of urls) {
      const res = await get(url, token, lang);
      expect(res.statusCode, url).toBe(200);
      out[url] = res.json();
    }
    return out;
  }

  for (const lang of ['es', 'pt', 'vi'] as const) {
    it(`answers no English provider text in ${lang}`, async () => {
      const english = new Set(englishTextsNotIn(lang));
      for (const token of [maria, linh]) {
        const all = await answers(token, lang);
        for (const [url, body] of Object.entries(all)) {
          expect(strings(body).filter((x) => english.has(x)), `${url} in ${lang}`).toEqual([]);
        }
      }
    });
  }

  it('answers each text in the language asked for, English by default', async () => {
    const rels = async (lang: string) => (await get('/api/Demographics/masterdata/relationship', maria, lang)).json().map((r: { relationship: string }) => r.relationship);
    expect((await rels('en')).slice(0, 2)).toEqual(['Mother', 'Father']);
    expect((await rels('es')).slice(0, 2)).toEqual(['Madre', 'Padre']);
    expect((await rels('pt-BR,pt;q=0.9')).slice(0, 2)).toEqual(['Mãe', 'Pai']);
    expect((await rels('vi')).slice(0, 2)).toEqual(['Mẹ', 'Cha']);
    const pps = (await get('/api/Registration/programperiods/list', maria, 'es')).json();
    expect(pps.find((p: { category: string }) => p.category === 'schoolYear').programPeriod).toBe('Cuidado antes y después de clases del año escolar');
    const [sofia] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Sofia'));
    const med = (await get(`/api/Demographics/children/${sofia.id}/medical-information`, maria, 'vi')).json();
    const allergies = med.questions.find((q: { fieldID: number }) => q.fieldID === 1);
    expect(allergies.fieldCaption).toBe('Con quý vị có bị dị ứng gì không?');
    expect(allergies.values.map((v: { value: string }) => v.value)).toContain('Đậu phộng');
  });

  it("falls back to the provider's default language where a language was not supplied", async () => {
    const db = t.db.handle.db;
    const [aunt] = await db.select().from(s.relationships).where(eq(s.relationships.relationship, 'Aunt'));
    await db.update(s.relationships).set({ translations: { relationship: { es: 'Tía' } } }).where(eq(s.relationships.id, aunt.id));
    try {
      const names = async (lang: string) => (await get('/api/Demographics/masterdata/relationship', maria, lang)).json().map((r: { relationship: string }) => r.relationship);
      expect(await names('es')).toContain('Tía');
      expect(await names('vi')).toContain('Aunt');
      expect(await names('pt')).toContain('Aunt');
    } finally {
      await db.update(s.relationships).set({ translations: aunt.translations }).where(eq(s.relationships.id, aunt.id));
    }
  });
});
