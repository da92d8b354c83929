// The people operations of spec 7.2 beyond the account forms, and the communication texts of 7.4:
// account flags, an adult's children, one adult-child relation, split children, a child's adults (read
// and save with the childAdults form), the master-data lists, contact-us subjects and custom texts.
// All answer from the seeded demo providers, in the parent's language, and refuse foreign ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, tokenFor, MARIA, KAREN, LINH, ANA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';

describe.each(BACKENDS)('relations, master data and communication texts on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let karen: string;
  let linh: string;
  let ana: string;
  const get = (url: string, token: string, lang = 'en') => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });
  const post = (url: string, token: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
  const adult = async (first: string) => (await t.db.handle.db.select().from(s.adults).where(eq(s.adults.firstName, first)))[0];
  const child = async (first: string) => (await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, first)))[0];

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    karen = await tokenFor(t.app, ...KAREN);
    linh = await tokenFor(t.app, ...LINH);
    ana = await tokenFor(t.app, ...ANA);
  });
  afterAll(async () => t?.close());

  it('answers the account flags from the account and decides blocked by the declared rules', async () => {
    const flags = (await get('/api/Demographics/accounts/flags', maria)).json();
    expect(flags).toMatchObject({ accountNo: 'BP-10234', suspended: false, isCollection: false, isLocked: false, isPunchPass: true, isSchoolDistrict: false, countryCode: 'US', accountHolder: 1, accessType: 'F', blocked: false, editBlocked: false });
    expect((await get('/api/Demographics/accounts/flags', linh)).json()).toMatchObject({ accountNo: 'NR-5521', isSchoolDistrict: true, countryCode: 'CA' });
    // a payment-only login sees its flags too
    expect((await get('/api/Demographics/accounts/flags', ana)).json()).toMatchObject({ accessType: 'P', accountHolder: 2 });
    const [garcia] = await t.db.handle.db.select().from(s.accounts).where(eq(s.accounts.accountNo, 'BP-10234'));
    await t.db.handle.db.update(s.accounts).set({ suspended: true, suspendedOn: '2026-11-01' }).where(eq(s.accounts.id, garcia.id));
    try {
      expect((await get('/api/Demographics/accounts/flags', maria)).json()).toMatchObject({ suspended: true, suspendedOn: '2026-11-01', blocked: true, editBlocked: true });
    } finally {
      await t.db.handle.db.update(s.accounts).set({ suspended: false, suspendedOn: null }).where(eq(s.accounts.id, garcia.id));
    }
  });

  it("lists an adult's children with the relationship in the parent's language", async () => {
    const rosa = await adult('Rosa');
    const kids = (await get(`/api/Demographics/adults/${rosa.id}/children`, maria, 'es')).json() as { childName: string; relationship: string; isEmergencyContact: boolean }[];
    expect(kids.map((k) => k.childName)).toEqual(['Emma Garcia', 'Lucas Garcia', 'Sofia Garcia']);
    expect(kids.every((k) => k.relationship === 'Abuela' && k.isEmergencyContact)).toBe(true);
    const james = await adult('James');
    const his = (await get(`/api/Demographics/adults/${james.id}/children`, maria, 'vi')).json() as { childName: string; relationship: string }[];
    // 'Other' keeps the parent's own words
    expect(his).toEqual([expect.objectContaining({ childName: 'Lucas Garcia', relationship: 'Neighbor' }), expect.objectContaining({ childName: 'Sofia Garcia', relationship: 'Neighbor' })]);
  });

  it('answers one relation, and related false for an adult and child without a link', async () => {
    const [rosa, james, sofia, emma] = [await adult('Rosa'), await adult('James'), await child('Sofia'), await child('Emma')];
    const r = (await get(`/api/Demographics/adults/${rosa.id}/${sofia.id}/relation`, maria, 'pt')).json();
    expect(r).toMatchObject({ adultName: 'Rosa Martinez', childName: 'Sofia Garcia', related: true, relationshipId: 5, relationship: 'Avó', isAuthorizedToPickUp: true, isLivesWith: false });
    const none = (await get(`/api/Demographics/adults/${james.id}/${emma.id}/relation`, maria)).json();
    expect(none).toMatchObject({ related: false, relationshipId: 0, relationship: '', isAuthorizedToPickUp: false });
    const other = (await get(`/api/Demographics/adults/${james.id}/${sofia.id}/relation`, maria)).json();
    expect(other).toMatchObject({ relationshipId: 99, otherRelationship: 'Neighbor' });
  });

  it('lists the split children with both accounts and the share', async () => {
    const split = (await get('/api/Demographics/children/split', maria)).json();
    expect(split).toEqual([{ childID: (await child('Emma')).id, childName: 'Emma Garcia', primaryAccNo: 'BP-10422', splitAccNo: 'BP-10234', splitPercentage: 40, splitShare: '40/60', isPrimaryAccount: false }]);
    // the other account does not hold Emma's record: it lists none
    expect((await get('/api/Demographics/children/split', karen)).json()).toEqual([]);
    expect((await get('/api/Demographics/children/split', linh)).json()).toEqual([]);
  });

  it("reads a child's adults and saves them with the childAdults form, never changing a do-not-release row", async () => {
    const sofia = await child('Sofia');
    const read = (await get(`/api/Demographics/children/${sofia.id}/adults`, maria, 'es')).json();
    const holders = read.adults.filter((a: { accountHolder: number }) => a.accountHolder <= 2);
    expect(holders.map((a: { accountHolder: number }) => a.accountHolder)).toEqual([1, 2, 2].slice(0, holders.length));
    const others = read.adults.slice(holders.length).map((a: { adultName: string }) => a.adultName);
    expect(others).toEqual([...others].sort());
    expect(others).toEqual(expect.arrayContaining(['Kevin Brooks', 'Rosa Martinez', 'Paula Reyes']));
    expect(read.adults[0]).toMatchObject({ adultName: 'Maria Garcia', accountHolder: 1, relationship: 'Madre' });
    const kevin = read.adults.find((a: { adultName: string }) => a.adultName.startsWith('Kevin'));
    expect(kevin).toMatchObject({ doNotRelease: true });

    const rosa = read.adults.find((a: { adultName: string }) => a.adultName.startsWith('Rosa'));
    // Other without its text: refused by the form
    const bad = await post(`/api/Demographics/children/${sofia.id}/adults`, maria, { adults: [{ ...rosa, relationshipId: 99, otherRelationship: '' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { path: string }) => e.path)).toContain('/adults/0/otherRelationship');
    // a do-not-release adult cannot be ticked as authorised (the record decides, not the request)
    const dnr = await post(`/api/Demographics/children/${sofia.id}/adults`, maria, { adults: [{ ...kevin, doNotRelease: false, isAuthorizedToPickUp: true }] });
    expect(dnr.statusCode).toBe(400);
    expect(dnr.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'errors.contact.doNotRelease' })]));

    const ok = await post(`/api/Demographics/children/${sofia.id}/adults`, maria, { adults: [{ ...rosa, relationshipId: 99, otherRelationship: 'Godmother', isLivesWith: true }, { ...kevin, relationshipId: 1 }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ childID: sofia.id, saved: 1 });
    const [link] = await t.db.handle.db.select().from(s.childAdults).where(and(eq(s.childAdults.childId, sofia.id), eq(s.childAdults.adultId, rosa.adultID)));
    expect(link).toMatchObject({ relationshipId: 99, relationship: 'Godmother', isLivesWith: true, isEmergencyContact: true });
    const [kev] = await t.db.handle.db.select().from(s.childAdults).where(and(eq(s.childAdults.childId, sofia.id), eq(s.childAdults.adultId, kevin.adultID)));
    expect(kev).toMatchObject({ relationshipId: 99, doNotRelease: true });
  });

  it("refuses a split child's adults from the account that is not its primary one", async () => {
    const emma = await child('Emma');
    const read = (await get(`/api/Demographics/children/${emma.id}/adults`, maria)).json();
    const res = await post(`/api/Demographics/children/${emma.id}/adults`, maria, { adults: read.adults.slice(0, 1) });
    expect(res.statusCode).toBe(403);
  });

  it('refuses ids of another account or provider with 404', async () => {
    const [sofia, rosa, karenSelf, linhSelf] = [await child('Sofia'), await adult('Rosa'), await adult('Karen'), await adult('Linh')];
    const [karenKid] = await t.db.handle.db.select().from(s.children).where(eq(s.children.accountId, karenSelf.accountId));
    for (const url of [
      `/api/Demographics/adults/${rosa.id}/children`,
      `/api/Demographics/adults/${rosa.id}/${sofia.id}/relation`,
      `/api/Demographics/children/${sofia.id}/adults`,
    ]) {
      expect((await get(url, karen)).statusCode, url).toBe(404);
      expect((await get(url, linh)).statusCode, url).toBe(404);
    }
    expect((await get(`/api/Demographics/adults/${rosa.id}/${karenKid.id}/relation`, maria)).statusCode).toBe(404);
    expect((await get(`/api/Demographics/adults/${linhSelf.id}/${sofia.id}/relation`, maria)).statusCode).toBe(404);
    const foreignRow = await post(`/api/Demographics/children/${sofia.id}/adults`, maria, { adults: [{ adultID: karenSelf.id, relationshipId: 1 }] });
    expect(foreignRow.statusCode).toBe(404);
    expect((await get(`/api/Communication/customtext/prepare-onscreen?contenttype=CONTACT_US&referenceId=${karenSelf.id}`, maria)).statusCode).toBe(404);
  });

  it('answers the medical and user-defined master data in the parent’s language', async () => {
    expect((await get('/api/Demographics/masterdata/allergies', maria, 'es')).json().map((v: { value: string }) => v.value)).toEqual(['Cacahuates', 'Frutos secos', 'Leche', 'Huevos', 'Picaduras de abeja']);
    expect((await get('/api/Demographics/masterdata/disabilities', maria, 'pt')).json().map((v: { value: string }) => v.value)).toContain('Mobilidade');
    expect((await get('/api/Demographics/masterdata/medical-conditions', maria, 'vi')).json().map((v: { value: string }) => v.value)).toContain('Hen suyễn');
    expect((await get('/api/Demographics/masterdata/special-needs', maria)).json()).toEqual([]);
    expect((await get('/api/Demographics/masterdata/medication', linh, 'es')).json().map((v: { id: number; value: string }) => v.value)).toEqual(['Inhalador', 'Autoinyector de epinefrina (EpiPen)', 'Insulina', 'Antihistamínico']);
    const udfs = (await get('/api/Demographics/masterdata/udfields?entity=A', maria, 'pt')).json();
    expect(udfs.map((u: { fieldName: string; fieldType: string }) => [u.fieldName, u.fieldType])).toEqual([['UDTexEmergencyWord', 'text'], ['UDDroShirtSize', 'dropdown'], ['UDRadVolunteer', 'radio']]);
    expect(udfs[1].values.map((v: { itemValue: string }) => v.itemValue)).toEqual(['Pequeno', 'Médio', 'Grande']);
    const both = (await get('/api/Demographics/masterdata/udfields', maria)).json();
    expect(both.map((u: { entity: string }) => u.entity)).toEqual(['A', 'A', 'A', 'C', 'C', 'C', 'C']);
    expect((await get('/api/Demographics/masterdata/udfields?entity=X', maria)).statusCode).toBe(400);
  });

  it('answers the adult and child field configurations from the provider', async () => {
    const adultFields = (await get('/api/Demographics/masterdata/adult-fields', maria, 'es')).json();
    expect(adultFields.slice(0, 2)).toEqual([
      { fieldName: 'driverLicense', source: 'standard', titleKey: 'fields.contact.driverLicenseNumber', mode: 'O' },
      { fieldName: 'employer', source: 'standard', titleKey: 'fields.contact.employer', mode: 'O' },
    ]);
    expect(adultFields[2]).toMatchObject({ fieldName: 'UDTexEmergencyWord', source: 'userDefined', caption: 'Contraseña para recoger' });
    const childFields = (await get('/api/Demographics/masterdata/child-fields', maria, 'vi')).json();
    expect(childFields.find((f: { fieldName: string }) => f.fieldName === 'UDTexNickname')).toMatchObject({ mode: 'M', caption: 'Tên thường gọi' });
    expect(childFields.find((f: { fieldName: string }) => f.fieldName === 'medical1')).toMatchObject({ source: 'medical', mode: 'M', caption: 'Con quý vị có bị dị ứng gì không?' });
    expect(childFields.find((f: { fieldName: string }) => f.fieldName === 'medical5')).toMatchObject({ mode: 'O' });
  });

  it("answers states by the provider's country, and the licence states with the not-listed choice", async () => {
    const us = (await get('/api/Demographics/masterdata/state', maria)).json();
    expect(us).toContainEqual({ stateCode: 'IL', state: 'Illinois' });
    const ca = (await get('/api/Demographics/masterdata/state', linh)).json();
    expect(ca).toContainEqual({ stateCode: 'AB', state: 'Alberta' });
    expect(ca.some((x: { stateCode: string }) => x.stateCode === 'IL')).toBe(false);
    const dl = (await get('/api/Demographics/masterdata/driver-license-state', maria, 'vi')).json();
    expect(dl.at(-1)).toEqual({ stateCode: 'notListed', state: 'Không có trong danh sách' });
    expect(dl).toHaveLength(us.length + 1);
  });

  it('answers the short lists in the parent’s language, per provider', async () => {
    const list = async (path: string, token: string, lang: string) => ((await get(`/api/Demographics/masterdata/${path}`, token, lang)).json() as { code: string; text: string }[]);
    expect(await list('gender', maria, 'es')).toEqual([{ code: 'F', text: 'Femenino' }, { code: 'M', text: 'Masculino' }, { code: 'U', text: 'Prefiero no decirlo' }]);
    expect((await list('marital-status', maria, 'pt')).map((x) => x.text)).toContain('União estável');
    expect((await list('primary-language', maria, 'vi')).find((x) => x.code === 'es')).toEqual({ code: 'es', text: 'Tiếng Tây Ban Nha' });
    expect((await list('meal-eligibility', maria, 'en')).map((x) => x.code)).toEqual(['F', 'R', 'P', 'N']);
    expect((await list('tshirt-size', maria, 'es'))[0]).toEqual({ code: 'YS', text: 'Juvenil pequeña' });
    expect((await list('transportation-mode', maria, 'en')).map((x) => x.code)).toContain('B');
    // Northridge offers no meal or T-shirt choices and no bus
    expect(await list('meal-eligibility', linh, 'en')).toEqual([]);
    expect(await list('tshirt-size', linh, 'en')).toEqual([]);
    expect((await list('transportation-mode', linh, 'es')).map((x) => x.code)).toEqual(['P', 'W', 'C', 'T']);
  });

  it('answers the contact-us subjects in the parent’s language', async () => {
    const subjects = (await get('/api/Communication/Subjects', maria, 'pt')).json();
    expect(subjects[0]).toEqual({ subjectID: '1', subject: 'Dúvida sobre cobrança' });
    expect(subjects.at(-1)).toEqual({ subjectID: '9', subject: 'Outro assunto' });
    expect(subjects.map((s: { subjectID: string }) => s.subjectID)).not.toContain('6');
    // each provider its own list: the school district's transportation subject is Northridge's
    const northridge = (await get('/api/Communication/Subjects', linh, 'vi')).json();
    expect(northridge).toHaveLength(7);
    expect(northridge).toContainEqual({ subjectID: '6', subject: 'Đưa đón của khu học chánh' });
  });

  it('prepares a custom text: placeholders filled and escaped, sanitised, in the parent’s language', async () => {
    const paula = await adult('Paula');
    const res = await get(`/api/Communication/customtext/prepare-onscreen?contenttype=AUTOMATIC_PAYMENT_TERMSANDCONDITIONS&referenceId=${paula.id}`, maria, 'es');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toBe('<p>Yo, Paula Reyes, autorizo a Bright Path Kids Club a cobrar con el método de pago registrado las cuotas de la cuenta BP-10234 en cada fecha de vencimiento, hasta que lo cancele en el portal para padres.</p><p>Preguntas: (217)555-0142.</p>');
    // without a reference: the signed-in adult
    expect((await get('/api/Communication/customtext/prepare-onscreen?contenttype=AUTOMATIC_PAYMENT_TERMSANDCONDITIONS', maria)).json().body).toContain('I, Maria Garcia, authorize');
    // Northridge has no autopay terms
    expect((await get('/api/Communication/customtext/prepare-onscreen?contenttype=AUTOMATIC_PAYMENT_TERMSANDCONDITIONS', linh)).statusCode).toBe(404);
    expect((await get('/api/Communication/customtext/prepare-onscreen?contenttype=CONTACT_US', linh, 'vi')).json().body).toContain('(403)555-0187');
    // a provider text with markup that must not run, and a name that must stay text
    const [bp] = await t.db.handle.db.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    await t.db.handle.db.update(s.customTexts).set({ body: '<p onclick="x()">Hi {{AdultName}}<script>alert(1)</script><img src=x onerror=y></p>', translations: {} }).where(and(eq(s.customTexts.providerId, bp.id), eq(s.customTexts.contentType, 'CONTACT_US')));
    await t.db.handle.db.update(s.adults).set({ lastName: 'Reyes<b>' }).where(eq(s.adults.id, paula.id));
    try {
      const html = (await get(`/api/Communication/customtext/prepare-onscreen?contenttype=CONTACT_US&referenceId=${paula.id}`, maria, 'es')).json().body;
      expect(html).toBe('<p>Hi Paula Reyes&lt;b&gt;</p>');
    } finally {
      await t.db.handle.db.update(s.adults).set({ lastName: 'Reyes' }).where(eq(s.adults.id, paula.id));
    }
  });
});
