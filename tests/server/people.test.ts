// Account and people over the demo data: contact, child and medical details and saves, the rules of
// spec 5.1/5.4/5.7 on the server, drop adult with and without autopay, check-in PINs, photos, and
// every endpoint refusing ids of another account or provider and blocked actions (nothing changes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Jimp } from 'jimp';
import { BACKENDS, createTestApp, tokenFor, MARIA, ANA, KAREN, LINH, type TestApp } from './helpers';
import * as s from '../../server/db/schema';

describe.each(BACKENDS)('account and people on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let ana: string;
  let karen: string;
  let linh: string;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });
  const post = (url: string, token: string, payload: unknown = {}) => t.app.inject({ method: 'POST', url, headers: auth(token), payload: payload as object });
  const adultNamed = async (first: string) => {
    const [a] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.firstName, first));
    return a;
  };
  const childNamed = async (first: string) => {
    const [c] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, first));
    return c;
  };
  const upload = (url: string, token: string, name: string, data: Buffer) => {
    const boundary = '----pp-test-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({ method: 'POST', url, headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
  };

  /** the user-defined fields answered (every one is mandatory for adults) */
  const answered = (rows: { fieldName: string }[]) =>
    rows.map((u) => ({ ...u, value: u.fieldName.startsWith('UDDro') ? 1 : u.fieldName.startsWith('UDRad') ? true : 'answer' }));
  /** a contact body that passes the form's rules, so only the id decides */
  const validContact = (d: Record<string, unknown>) => ({
    ...d,
    firstName: d.firstName || 'Zed',
    lastName: d.lastName || 'Zed',
    homePhone: '2175550999',
    cellPhone: '',
    relationships: (d.relationships as object[]).map((r, i) => ({ ...r, relationshipId: i === 0 ? 1 : 0, isLivesWith: i === 0 })),
    userDefinedFields: answered(d.userDefinedFields as { fieldName: string }[]),
  });

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    ana = await tokenFor(t.app, ...ANA);
    karen = await tokenFor(t.app, ...KAREN);
    linh = await tokenFor(t.app, ...LINH);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists holders first, other contacts by first name with do-not-release last, and split shares', async () => {
    const adults = (await get('/api/Demographics/adults', maria)).json() as { firstName: string; accountHolder: number; doNotRelease: number }[];
    expect(adults.map((a) => a.firstName)).toEqual(['Maria', 'David', 'Ana', 'James', 'Paula', 'Rosa', 'Kevin']);
    expect(adults.at(-1)!.doNotRelease).toBe(1);
    const kids = (await get('/api/Demographics/children', maria)).json() as { firstName: string; splitShare: string; isPrimaryAccount: boolean }[];
    expect(kids.find((k) => k.firstName === 'Emma')).toMatchObject({ splitShare: '40/60', isPrimaryAccount: false });
    expect(kids.find((k) => k.firstName === 'Sofia')).toMatchObject({ splitShare: '' });
  });

  it('answers a new contact form with a row per child and the user-defined fields, and saves it', async () => {
    const blank = (await get('/api/Demographics/adults/details/0', maria)).json();
    expect(blank.accountHolder).toBe(4);
    expect(blank.relationships.map((r: { childName: string }) => r.childName)).toEqual(['Emma Garcia', 'Lucas Garcia', 'Sofia Garcia']);
    expect(blank.userDefinedFields.map((u: { fieldName: string }) => u.fieldName)).toEqual(['UDTexEmergencyWord', 'UDDroShirtSize', 'UDRadVolunteer']);
    const contact = {
      ...blank,
      firstName: 'Beatriz',
      lastName: 'Lopez',
      homePhone: '(217)555-0111',
      cellPhone: '(217)555-0111',
      relationships: blank.relationships.map((r: object, i: number) => ({ ...r, relationshipId: i === 0 ? 99 : 0, otherRelationship: i === 0 ? 'Godmother' : undefined, isEmergencyContact: i === 0 })),
      userDefinedFields: blank.userDefinedFields.map((u: { fieldName: string }) => ({ ...u, value: u.fieldName === 'UDDroShirtSize' ? 2 : u.fieldName === 'UDRadVolunteer' ? false : 'tulip' })),
    };
    // home and cell phones must differ (spec 5.4)
    const same = await post('/api/Demographics/adults/0', maria, contact);
    expect(same.statusCode).toBe(400);
    expect(same.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/homePhone', key: 'errors.contact.phonesDiffer' })]));
    // a home or cell phone is required; 0000000000 counts as empty
    const none = await post('/api/Demographics/adults/0', maria, { ...contact, homePhone: '0000000000', cellPhone: '' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['/homePhone', '/cellPhone']));
    // at least one child relationship flag
    const noRole = await post('/api/Demographics/adults/0', maria, { ...contact, cellPhone: '', relationships: contact.relationships.map((r: object) => ({ ...r, isEmergencyContact: false })) });
    expect(noRole.statusCode).toBe(400);
    expect(noRole.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/relationships', key: 'errors.contact.childRole' })]));
    // every user-defined field is mandatory for adults
    const noUdf = await post('/api/Demographics/adults/0', maria, { ...contact, cellPhone: '', userDefinedFields: blank.userDefinedFields });
    expect(noUdf.statusCode).toBe(400);
    expect(noUdf.json().errors.filter((e: { path: string }) => e.path.startsWith('/userDefinedFields/'))).toHaveLength(3);
    // the other relationship's text is required
    const noOther = await post('/api/Demographics/adults/0', maria, { ...contact, cellPhone: '', relationships: contact.relationships.map((r: object, i: number) => (i === 0 ? { ...r, otherRelationship: '' } : r)) });
    expect(noOther.statusCode).toBe(400);
    expect(noOther.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/relationships/0/otherRelationship', key: 'errors.required' })]));

    const ok = await post('/api/Demographics/adults/0', maria, { ...contact, cellPhone: '', driverLicenseState: 'IL', driverLicenseNumber: 'B12345' });
    expect(ok.statusCode).toBe(200);
    const id = ok.json().adultID as number;
    const saved = await adultNamed('Beatriz');
    expect(saved).toMatchObject({ id, accountHolder: 4, homePhone: '2175550111', cellPhone: '', driverLicense: 'IL$$B12345' });
    expect(saved.userDefinedFields).toMatchObject({ UDTexEmergencyWord: 'tulip', UDDroShirtSize: 2, UDRadVolunteer: false });
    const details = (await get(`/api/Demographics/adults/details/${id}`, maria)).json();
    expect(details).toMatchObject({ driverLicenseState: 'IL', driverLicenseNumber: 'B12345' });
    expect(details.relationships[0]).toMatchObject({ relationshipId: 99, otherRelationship: 'Godmother', isEmergencyContact: true });
    const list = (await get('/api/Demographics/adults', maria)).json() as { firstName: string }[];
    expect(list.map((a) => a.firstName)).toEqual(['Maria', 'David', 'Ana', 'Beatriz', 'James', 'Paula', 'Rosa', 'Kevin']);
  });

  it('refuses editing a do-not-release contact and setting one as authorised', async () => {
    const kevin = await adultNamed('Kevin');
    const details = (await get(`/api/Demographics/adults/details/${kevin.id}`, maria)).json();
    expect(details.doNotRelease).toBe(1);
    // lives-with is allowed for a do-not-release contact, authorised and emergency are not
    const asAuthorised = { ...validContact(details), relationships: details.relationships.map((r: object) => ({ ...r, relationshipId: 99, otherRelationship: 'Former caregiver', isAuthorizedToPickUp: true })) };
    // a do-not-release contact is not editable, whatever the request says about it
    expect((await post(`/api/Demographics/adults/${kevin.id}`, maria, asAuthorised)).statusCode).toBe(403);
    expect((await post(`/api/Demographics/adults/${kevin.id}`, maria, { ...asAuthorised, doNotRelease: 0 })).statusCode).toBe(403);
    const res = await post(`/api/Demographics/adults/${kevin.id}`, maria, { ...validContact(details), firstName: 'Kev' });
    expect(res.statusCode).toBe(403);
    expect((await adultNamed('Kevin')).firstName).toBe('Kevin');
    const del = await post(`/api/Demographics/adults/${kevin.id}/Delete`, maria, { confirmCancel: true });
    expect(del.statusCode).toBe(403);
    expect((await adultNamed('Kevin')).deleted).toBe(false);
  });

  it('validates a contact with the account holder kind and do-not-release of the record, not of the request', async () => {
    const rosa = await adultNamed('Rosa');
    const details = (await get(`/api/Demographics/adults/details/${rosa.id}`, maria)).json();
    expect(details).toMatchObject({ accountHolder: 4, doNotRelease: 0 });
    const authorised = { ...validContact(details), relationships: details.relationships.map((r: object, i: number) => (i === 0 ? { ...r, relationshipId: 1, isAuthorizedToPickUp: true } : r)) };
    // claimed do-not-release: the form's rule would refuse 'authorised'; the record says releasable
    const claimed = await post(`/api/Demographics/adults/${rosa.id}`, maria, { ...authorised, doNotRelease: 1, accountHolder: 1 });
    expect(claimed.statusCode).toBe(200);
    const after = await adultNamed('Rosa');
    expect(after.accountHolder).toBe(4);
    const saved = (await get(`/api/Demographics/adults/details/${rosa.id}`, maria)).json();
    expect(saved.relationships[0]).toMatchObject({ relationshipId: 1, isAuthorizedToPickUp: true });
  });

  it('drops an adult with autopay only after confirming, cancelling autopay and payment on file first', async () => {
    const paula = await adultNamed('Paula');
    const status = (await get(`/api/Demographics/adults/${paula.id}/drop-status`, maria)).json();
    expect(status).toMatchObject({ isAutoPay: true, isPaymentOnfile: true, paymentMethodCode: 'CCD' });
    const refused = await post(`/api/Demographics/adults/${paula.id}/Delete`, maria, {});
    expect(refused.statusCode).toBe(409);
    expect((await adultNamed('Paula')).deleted).toBe(false);
    const ok = await post(`/api/Demographics/adults/${paula.id}/Delete`, maria, { confirmCancel: true });
    expect(ok.json()).toEqual({ dropped: true, cancelledAutoPay: 1, removedPaymentMethods: 1 });
    const regs = await t.db.handle.db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.adultId, paula.id));
    expect(regs.every((r) => !r.active)).toBe(true);
    expect((await adultNamed('Paula')).deleted).toBe(true);

    const rosa = await adultNamed('Rosa');
    expect((await get(`/api/Demographics/adults/${rosa.id}/drop-status`, maria)).json()).toMatchObject({ isAutoPay: false, isPaymentOnfile: false });
    expect((await post(`/api/Demographics/adults/${rosa.id}/Delete`, maria, {})).json()).toMatchObject({ dropped: true, cancelledAutoPay: 0 });
    const names = ((await get('/api/Demographics/adults', maria)).json() as { firstName: string }[]).map((a) => a.firstName);
    expect(names).not.toContain('Rosa');
    expect(names).not.toContain('Paula');
    const maria1 = await adultNamed('Maria');
    expect((await post(`/api/Demographics/adults/${maria1.id}/Delete`, maria, { confirmCancel: true })).statusCode).toBe(403);
  });

  it('changes and generates check-in PINs, refusing a PIN another adult holds', async () => {
    const linhAdult = await adultNamed('Linh');
    expect(linhAdult.pin).toBe('2580');
    // a PIN of the same provider is taken; another provider's PIN is not
    const taken = await post('/api/Demographics/adults/pin', maria, { mode: 'change', pin: '7391' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().key).toBe('server.errors.pinExists');
    expect((await post('/api/Demographics/adults/pin', maria, { mode: 'change', pin: '2580' })).statusCode).toBe(200);
    expect((await adultNamed('Maria')).pin).toBe('2580');
    expect((await post('/api/Demographics/adults/pin', maria, { mode: 'change', pin: '12' })).statusCode).toBe(400);
    // the operation decides the form's mode: changing a PIN claimed as 'generate' still requires the PIN
    const modeClaimed = await post('/api/Demographics/adults/pin', maria, { mode: 'generate' });
    expect(modeClaimed.statusCode).toBe(400);
    expect(modeClaimed.json().errors).toEqual([expect.objectContaining({ path: '/pin', key: 'errors.required' })]);
    const pins = (await get('/api/Demographics/adults/pin', maria)).json() as { firstName: string; pin: string; isMe: boolean }[];
    expect(pins.map((p) => p.firstName)).toEqual(['Maria', 'David', 'Ana']);
    const none = await post('/api/Demographics/adults/generate-pin', maria, { mode: 'generate', adultIDs: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([expect.objectContaining({ path: '/adultIDs', key: 'errors.pin.selectAdult' })]);
    const claimedChange = await post('/api/Demographics/adults/generate-pin', maria, { mode: 'change', pin: '4321' });
    expect(claimedChange.statusCode).toBe(400);
    expect(claimedChange.json().errors).toEqual([expect.objectContaining({ path: '/adultIDs', key: 'errors.pin.selectAdult' })]);
    const [m, d] = [await adultNamed('Maria'), await adultNamed('David')];
    const gen = await post('/api/Demographics/adults/generate-pin', maria, { mode: 'generate', adultIDs: [m.id, d.id] });
    expect(gen.statusCode).toBe(200);
    const out = gen.json() as { adultID: number; pin: string }[];
    expect(out).toHaveLength(2);
    expect(out[0].pin).toMatch(/^\d{4}$/);
    expect(out[0].pin).not.toBe(out[1].pin);
    expect((await adultNamed('David')).pin).toBe(out.find((o) => o.adultID === d.id)!.pin);
  });

  it('reads and saves a child and its medical information; a split child of another primary account is refused', async () => {
    const sofia = await childNamed('Sofia');
    const details = (await get(`/api/Demographics/children/${sofia.id}/details`, maria)).json();
    expect(details).toMatchObject({ firstName: 'Sofia', gradeLevelCode: '03' });
    const nick = details.userDefinedFields.find((u: { fieldName: string }) => u.fieldName === 'UDTexNickname');
    expect(nick).toMatchObject({ isMandatory: true, value: 'Sofi' });
    const saved = await post(`/api/Demographics/children/${sofia.id}`, maria, { ...details, school: 'Lincoln Magnet School', gradeLevelCode: '04' });
    expect(saved.statusCode).toBe(200);
    expect((await childNamed('Sofia')).school).toBe('Lincoln Magnet School');
    // a mandatory child field stays mandatory, whatever the request says about it
    const lying = details.userDefinedFields.map((u: { fieldName: string }) => ({ ...u, isMandatory: false, value: undefined }));
    expect((await post(`/api/Demographics/children/${sofia.id}`, maria, { ...details, userDefinedFields: lying })).statusCode).toBe(400);
    expect((await post(`/api/Demographics/children/${sofia.id}`, maria, { ...details, gradeLevelCode: 'ZZ' })).statusCode).toBe(404);
    // a site of another provider
    const [northSite] = await t.db.handle.db.select().from(s.sites).innerJoin(s.providers, eq(s.providers.id, s.sites.providerId)).where(eq(s.providers.appName, 'northridge'));
    expect((await post(`/api/Demographics/children/${sofia.id}`, maria, { ...details, homeSiteID: northSite.sites.id })).statusCode).toBe(404);
    expect((await childNamed('Sofia')).homeSiteId).toBe(sofia.homeSiteId);

    const med = (await get(`/api/Demographics/children/${sofia.id}/medical-information`, maria)).json();
    expect(med.questions).toHaveLength(5);
    expect(med.questions[0]).toMatchObject({ fieldID: 1, answer: true, standardValues: [101], hasStandardValues: 'M', explanationType: 'M' });
    const answers = med.questions.map((q: { fieldID: number }) => ({ ...q, answer: q.fieldID === 1, standardValues: q.fieldID === 1 ? [101, 103] : undefined, explanation: q.fieldID === 1 ? 'Milk and peanuts' : undefined }));
    const tooLong = await post(`/api/Demographics/children/${sofia.id}/medical-information`, maria, { ...med, childID: undefined, questions: answers.map((q: object, i: number) => (i === 0 ? { ...q, explanation: 'x'.repeat(1001) } : q)) });
    expect(tooLong.statusCode).toBe(400);
    const missing = await post(`/api/Demographics/children/${sofia.id}/medical-information`, maria, { ...med, childID: undefined, questions: answers.map((q: object, i: number) => (i === 0 ? { ...q, explanation: '' } : q)) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/questions/0/explanation', key: 'errors.required' })]));
    const ok = await post(`/api/Demographics/children/${sofia.id}/medical-information`, maria, { ...med, childID: undefined, doctorName: 'Dr. Ana Ruiz', questions: answers });
    expect(ok.statusCode).toBe(200);
    const after = (await childNamed('Sofia')).medical as { doctorName: string; answers: Record<string, { standardValues?: number[]; explanation?: string }> };
    expect(after.doctorName).toBe('Dr. Ana Ruiz');
    expect(after.answers['1']).toMatchObject({ standardValues: [101, 103], explanation: 'Milk and peanuts' });

    const emma = await childNamed('Emma');
    expect((await get(`/api/Demographics/children/${emma.id}/details`, maria)).statusCode).toBe(403);
    expect((await get(`/api/Demographics/children/${emma.id}/medical-information`, maria)).statusCode).toBe(403);
  });

  it("medical 'Other' among the standard values: offered only where enabled, its text required, checked and stored; displayMessage read", async () => {
    const lucas = await childNamed('Lucas');
    const url = `/api/Demographics/children/${lucas.id}/medical-information`;
    const med = (await get(url, maria)).json();
    expect(med.questions[0]).toMatchObject({ fieldID: 1, isOtherStandardEnabled: true, displayMessage: expect.stringContaining('allergy') });
    expect(med.questions[1]).toMatchObject({ fieldID: 2, isOtherStandardEnabled: false });
    const before = (await childNamed('Lucas')).medical;
    const answer = (first: Record<string, unknown>, second: Record<string, unknown> = {}) => ({
      ...med,
      childID: undefined,
      questions: med.questions.map((q: { fieldID: number }) =>
        q.fieldID === 1 ? { ...q, answer: true, explanation: 'See the list', ...first } : q.fieldID === 2 ? { ...q, answer: false, ...second } : q.fieldID === 3 ? { ...q, answer: false } : q,
      ),
    });
    const errorsOf = async (body: unknown) => {
      const r = await post(url, maria, body);
      expect(r.statusCode, r.body).toBe(400);
      return r.json().errors as { path: string; key: string }[];
    };
    // Other chosen without its text
    expect(await errorsOf(answer({ standardValues: [101, -1] }))).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/questions/0/otherStandardValue', key: 'errors.required' })]));
    // special characters and more than 1000 characters
    const special = await post(url, maria, answer({ standardValues: [-1], otherStandardValue: 'kiwi <script>' }));
    expect(special.statusCode).toBe(422);
    expect(special.json().key).toBe('server.errors.specialCharacter');
    expect(await errorsOf(answer({ standardValues: [-1], otherStandardValue: 'k'.repeat(1001) }))).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/questions/0/otherStandardValue', key: 'errors.maxLength' })]));
    // Other where the field does not enable it, and an id of another field's list
    expect(await errorsOf(answer({ standardValues: [101] }, { answer: true, standardValues: [-1], otherStandardValue: 'x' }))).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/questions/1/standardValues', key: 'account.medical.unknownStandardValue' })]));
    expect(await errorsOf(answer({ standardValues: [201] }))).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/questions/0/standardValues', key: 'account.medical.unknownStandardValue' })]));
    expect((await childNamed('Lucas')).medical).toEqual(before);

    expect((await post(url, maria, answer({ standardValues: [102, -1], otherStandardValue: ' Kiwi fruit ' }))).statusCode).toBe(200);
    expect(((await childNamed('Lucas')).medical as { answers: Record<string, unknown> }).answers['1']).toMatchObject({ standardValues: [102, -1], otherStandardValue: 'Kiwi fruit' });
    expect((await get(url, maria)).json().questions[0]).toMatchObject({ standardValues: [102, -1], otherStandardValue: 'Kiwi fruit' });
    // the text is dropped once Other is no longer chosen
    expect((await post(url, maria, answer({ standardValues: [102], otherStandardValue: 'Kiwi fruit' }))).statusCode).toBe(200);
    expect(((await childNamed('Lucas')).medical as { answers: Record<string, unknown> }).answers['1']).not.toHaveProperty('otherStandardValue');
  });

  it("driver licence: a state of the list is stored STATE$$NUMBER; 'not listed' or no state stores the number alone, read back as 'not listed'", async () => {
    const david = await adultNamed('David');
    const details = (await get(`/api/Demographics/adults/details/${david.id}`, maria)).json();
    // an account holder gives the relationship to every child
    const body = { ...validContact(details), relationships: details.relationships.map((r: object) => ({ ...r, relationshipId: 1 })) };
    const save = (extra: Record<string, unknown>) => post(`/api/Demographics/adults/${david.id}`, maria, { ...body, ...extra });
    const first = await save({ driverLicenseState: 'notListed', driverLicenseNumber: 'Z998877' });
    expect(first.statusCode, first.body).toBe(200);
    expect((await adultNamed('David')).driverLicense).toBe('Z998877');
    expect((await get(`/api/Demographics/adults/details/${david.id}`, maria)).json()).toMatchObject({ driverLicenseState: 'notListed', driverLicenseNumber: 'Z998877' });
    expect((await save({ driverLicenseState: undefined, driverLicenseNumber: 'Z112233' })).statusCode).toBe(200);
    expect((await adultNamed('David')).driverLicense).toBe('Z112233');
    expect((await save({ driverLicenseState: 'NL', driverLicenseNumber: 'N445566' })).statusCode).toBe(200);
    expect((await adultNamed('David')).driverLicense).toBe('NL$$N445566');
    expect((await get(`/api/Demographics/adults/details/${david.id}`, maria)).json()).toMatchObject({ driverLicenseState: 'NL', driverLicenseNumber: 'N445566' });
    const bad = await save({ driverLicenseState: 'Nowhere', driverLicenseNumber: 'N1' });
    expect(bad.statusCode).toBe(400);
    expect((await adultNamed('David')).driverLicense).toBe('NL$$N445566');
  });

  it("primary language and transportation are codes of the provider's lists, checked on save", async () => {
    const david = await adultNamed('David');
    const details = (await get(`/api/Demographics/adults/details/${david.id}`, maria)).json();
    const body = { ...validContact(details), relationships: details.relationships.map((r: object) => ({ ...r, relationshipId: 1 })) };
    const save = (extra: Record<string, unknown>) => post(`/api/Demographics/adults/${david.id}`, maria, { ...body, ...extra });
    const ok = await save({ primaryLanguage: 'pt', transportation: 'B' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await adultNamed('David')).toMatchObject({ primaryLanguage: 'pt', transportation: 'B' });
    // a free text, and a code of no list of this provider, are refused and nothing changes
    for (const extra of [{ primaryLanguage: 'Klingon' }, { transportation: 'Helicopter' }]) {
      expect((await save(extra)).statusCode).toBe(404);
    }
    expect(await adultNamed('David')).toMatchObject({ primaryLanguage: 'pt', transportation: 'B' });
    // the list's names come in the parent's language
    const langs = (await get('/api/Demographics/masterdata/primary-language', maria)).json() as { code: string; text: string }[];
    expect(langs.find((l) => l.code === 'pt')?.text).toBe('Portuguese');
  });

  /** a request in the parent's language */
  const inLang = (lang: string, method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { ...auth(token), 'accept-language': lang }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  /** a child's user-defined fields with the mandatory preferred name given */
  const nicknamed = (rows: { fieldName: string; value?: unknown }[], nickname: string) => rows.map((u) => (u.fieldName === 'UDTexNickname' ? { ...u, value: u.value ?? nickname } : u));
  /** the answer of a code not on the provider's list, the same as for primary language and transportation */
  const refusedInSpanish = { key: 'server.errors.notFound', message: 'No se encontró el elemento solicitado.' };

  it("marital status is a code of the provider's list: read, saved, optional, and a code not on the list refused in the parent's language", async () => {
    const m = await adultNamed('Maria');
    const url = `/api/Demographics/adults/${m.id}`;
    const details = (await get(`/api/Demographics/adults/details/${m.id}`, maria)).json();
    expect(details.maritalStatus).toBe('M');
    const save = (extra: Record<string, unknown>, lang = 'en') => inLang(lang, 'POST', url, maria, { ...details, userDefinedFields: answered(details.userDefinedFields), ...extra });
    const ok = await save({ maritalStatus: 'P' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await adultNamed('Maria')).maritalStatus).toBe('P');
    expect((await get(`/api/Demographics/adults/details/${m.id}`, maria)).json().maritalStatus).toBe('P');
    // a free text, a code of another list (gender F, meal eligibility F) and another case are refused; nothing changes
    for (const code of ['Klingon', 'F', 'p']) {
      const bad = await save({ maritalStatus: code }, 'es');
      expect(bad.statusCode, code).toBe(404);
      expect(bad.json()).toMatchObject(refusedInSpanish);
    }
    expect((await adultNamed('Maria')).maritalStatus).toBe('P');
    // optional: left out, nothing is stored
    const none = await save({ maritalStatus: undefined });
    expect(none.statusCode, none.body).toBe(200);
    expect((await adultNamed('Maria')).maritalStatus).toBe('');
    // an other contact is not asked: a value sent for one is not saved
    const james = await adultNamed('James');
    const jd = (await get(`/api/Demographics/adults/details/${james.id}`, maria)).json();
    expect(jd).toMatchObject({ accountHolder: 5, maritalStatus: '' });
    const other = await post(`/api/Demographics/adults/${james.id}`, maria, { ...jd, userDefinedFields: answered(jd.userDefinedFields), maritalStatus: 'S' });
    expect(other.statusCode, other.body).toBe(200);
    expect((await adultNamed('James')).maritalStatus).toBe('');
    // the list's names come in the parent's language
    const names = (await inLang('pt', 'GET', '/api/Demographics/masterdata/marital-status', maria)).json() as { code: string; text: string }[];
    expect(names.find((x) => x.code === 'P')?.text).toBe('União estável');
  });

  it("meal eligibility and T-shirt size are codes of the provider's lists: read, saved, listed by name in the parent's language, and a code not on the list refused", async () => {
    const lucas = await childNamed('Lucas');
    const url = `/api/Demographics/children/${lucas.id}`;
    const details = (await get(`${url}/details`, maria)).json();
    expect(details).toMatchObject({ mealEligibility: 'R', tshirtSize: 'YS' });
    const save = (extra: Record<string, unknown>, lang = 'en') => inLang(lang, 'POST', url, maria, { ...details, userDefinedFields: nicknamed(details.userDefinedFields, 'Luke'), ...extra });
    const ok = await save({ mealEligibility: 'F', tshirtSize: 'YM' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await childNamed('Lucas')).toMatchObject({ mealEligibility: 'F', tshirtSize: 'YM' });
    expect((await get(`${url}/details`, maria)).json()).toMatchObject({ mealEligibility: 'F', tshirtSize: 'YM' });
    // the children list gives each code's name in the parent's language (My Account shows the name)
    const listed = async (lang: string) => ((await inLang(lang, 'GET', '/api/Demographics/children', maria)).json() as Record<string, unknown>[]).find((k) => k.firstName === 'Lucas');
    expect(await listed('es')).toMatchObject({ mealEligibility: 'F', mealEligibilityName: 'Comidas gratuitas', tshirtSize: 'YM', tshirtSizeName: 'Juvenil mediana' });
    expect(await listed('en')).toMatchObject({ mealEligibilityName: 'Free meals', tshirtSizeName: 'Youth Medium' });
    // a free text, and a code of another list, are refused in the parent's language; nothing changes
    for (const extra of [{ mealEligibility: 'Free lunch' }, { mealEligibility: 'YS' }, { tshirtSize: 'XXL' }, { tshirtSize: 'M' }]) {
      const bad = await save(extra, 'es');
      expect(bad.statusCode, JSON.stringify(extra)).toBe(404);
      expect(bad.json()).toMatchObject(refusedInSpanish);
    }
    expect(await childNamed('Lucas')).toMatchObject({ mealEligibility: 'F', tshirtSize: 'YM' });
    // both optional: left out, nothing is stored and the list names nothing
    const none = await save({ mealEligibility: undefined, tshirtSize: undefined });
    expect(none.statusCode, none.body).toBe(200);
    expect(await childNamed('Lucas')).toMatchObject({ mealEligibility: '', tshirtSize: '' });
    expect(await listed('en')).toMatchObject({ mealEligibility: '', mealEligibilityName: '', tshirtSize: '', tshirtSizeName: '' });
  });

  it('a provider that offers no meal or T-shirt choices does not ask for them: a value sent anyway is not saved', async () => {
    const an = await childNamed('An');
    const url = `/api/Demographics/children/${an.id}`;
    const details = (await get(`${url}/details`, linh)).json();
    expect(details).toMatchObject({ mealEligibility: '', tshirtSize: '' });
    // Bright Path's codes: Northridge's lists are empty, so the fields are hidden and their values pruned
    const res = await post(url, linh, { ...details, userDefinedFields: nicknamed(details.userDefinedFields, 'Annie'), mealEligibility: 'F', tshirtSize: 'YM' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await childNamed('An')).toMatchObject({ mealEligibility: '', tshirtSize: '' });
    expect(((await get('/api/Demographics/children', linh)).json() as Record<string, unknown>[]).find((k) => k.firstName === 'An')).toMatchObject({ mealEligibilityName: '', tshirtSizeName: '' });
  });

  it('stores an uploaded photo re-encoded and resized; a file that is not a picture is refused by its content', async () => {
    const sofia = await childNamed('Sofia');
    const png = await new Jimp({ width: 1200, height: 800, color: 0x3366ccff }).getBuffer('image/png');
    const res = await upload(`/api/Demographics/children/${sofia.id}/photo`, maria, 'sofia.png', png);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hasPhoto: true, width: 600, height: 400 });
    const photo = await get(`/api/Demographics/children/${sofia.id}/photo`, maria);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect([...photo.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const fake = await upload(`/api/Demographics/children/${sofia.id}/photo`, maria, 'evil.png', Buffer.from('<script>alert(1)</script>'));
    expect(fake.statusCode).toBe(400);
    expect(fake.json().key).toBe('server.errors.photoType');
    const m = await adultNamed('Maria');
    expect((await upload(`/api/Demographics/adults/${m.id}/photo`, maria, 'me.jpg', await new Jimp({ width: 40, height: 40, color: 0xff0000ff }).getBuffer('image/jpeg'))).statusCode).toBe(200);
  });

  it('refuses every endpoint with an id of another account or provider, and nothing changes', async () => {
    const karenAdult = await adultNamed('Karen');
    const tyler = await childNamed('Tyler');
    const thi = await adultNamed('Thi');
    const an = await childNamed('An');
    const before = JSON.stringify([await adultNamed('Karen'), await childNamed('Tyler'), await adultNamed('Thi'), await childNamed('An')]);
    const blank = (await get('/api/Demographics/adults/details/0', maria)).json();
    for (const adultId of [karenAdult.id, thi.id]) {
      expect((await get(`/api/Demographics/adults/details/${adultId}`, maria)).statusCode).toBe(404);
      expect((await post(`/api/Demographics/adults/${adultId}`, maria, validContact(blank))).statusCode).toBe(404);
      expect((await get(`/api/Demographics/adults/${adultId}/drop-status`, maria)).statusCode).toBe(404);
      expect((await post(`/api/Demographics/adults/${adultId}/Delete`, maria, { confirmCancel: true })).statusCode).toBe(404);
      expect((await get(`/api/Demographics/adults/${adultId}/photo`, maria)).statusCode).toBe(404);
      expect((await upload(`/api/Demographics/adults/${adultId}/photo`, maria, 'a.png', await new Jimp({ width: 4, height: 4, color: 0 }).getBuffer('image/png'))).statusCode).toBe(404);
      expect((await post('/api/Demographics/adults/generate-pin', maria, { mode: 'generate', adultIDs: [adultId] })).statusCode).toBe(404);
    }
    for (const childId of [tyler.id, an.id]) {
      expect((await get(`/api/Demographics/children/${childId}/details`, maria)).statusCode).toBe(404);
      expect((await post(`/api/Demographics/children/${childId}`, maria, { firstName: 'X', lastName: 'Y', genderCode: 'M', dateofBirth: '01/01/2015', userDefinedFields: [{ fieldName: 'UDTexNickname', caption: 'x', isMandatory: true, values: [], value: 'X' }] })).statusCode).toBe(404);
      expect((await get(`/api/Demographics/children/${childId}/medical-information`, maria)).statusCode).toBe(404);
      expect((await post(`/api/Demographics/children/${childId}/medical-information`, maria, { questions: [] })).statusCode).toBe(404);
      expect((await get(`/api/Demographics/children/${childId}/photo`, maria)).statusCode).toBe(404);
      expect((await upload(`/api/Demographics/children/${childId}/photo`, maria, 'a.png', await new Jimp({ width: 4, height: 4, color: 0 }).getBuffer('image/png'))).statusCode).toBe(404);
    }
    // a relationship row naming another account's child
    const foreignRow = { childID: tyler.id, childName: 'x', relationshipId: 1, isAuthorizedToPickUp: true, isEmergencyContact: false, isLivesWith: false };
    expect((await post('/api/Demographics/adults/0', maria, { ...validContact(blank), firstName: 'Zoe', relationships: [foreignRow] })).statusCode).toBe(404);
    expect((await adultNamed('Zoe')) ?? null).toBeNull();
    expect(JSON.stringify([await adultNamed('Karen'), await childNamed('Tyler'), await adultNamed('Thi'), await childNamed('An')])).toBe(before);
    // Karen and Linh see only their own people
    expect(((await get('/api/Demographics/adults', karen)).json() as { firstName: string }[]).map((a) => a.firstName)).toEqual(['Karen']);
    expect((await get(`/api/Demographics/children/${an.id}/details`, linh)).statusCode).toBe(200);
  });

  it('refuses blocked actions: program options, account states and a payment-only login', async () => {
    const db = t.db.handle.db;
    const [p] = await db.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const james = await adultNamed('James');
    const sofia = await childNamed('Sofia');
    await db.update(s.providers).set({ programOptions: { ...p.programOptions, canParentChangePin: false, canParentChangeContact: false, canParentAddContact: false, canParentChangeMedicalInfo: false, canParentUploadPhotos: false, canParentDeleteContact: false } }).where(eq(s.providers.id, p.id));
    try {
      expect((await post('/api/Demographics/adults/pin', maria, { mode: 'change', pin: '9999' })).statusCode).toBe(403);
      expect((await get('/api/Demographics/adults/details/0', maria)).statusCode).toBe(403);
      const jd = (await get(`/api/Demographics/adults/details/${james.id}`, maria)).json();
      expect((await post(`/api/Demographics/adults/${james.id}`, maria, { ...jd, firstName: 'Jim', userDefinedFields: answered(jd.userDefinedFields) })).statusCode).toBe(403);
      expect((await post(`/api/Demographics/adults/${james.id}/Delete`, maria, {})).statusCode).toBe(403);
      expect((await get(`/api/Demographics/children/${sofia.id}/medical-information`, maria)).statusCode).toBe(403);
      expect((await upload(`/api/Demographics/children/${sofia.id}/photo`, maria, 'a.png', await new Jimp({ width: 4, height: 4, color: 0 }).getBuffer('image/png'))).statusCode).toBe(403);
    } finally {
      await db.update(s.providers).set({ programOptions: p.programOptions }).where(eq(s.providers.id, p.id));
    }
    const [acc] = await db.select().from(s.accounts).where(and(eq(s.accounts.providerId, p.id), eq(s.accounts.accountNo, 'BP-10234')));
    await db.update(s.accounts).set({ suspended: true }).where(eq(s.accounts.id, acc.id));
    try {
      const jd = (await get(`/api/Demographics/adults/details/${james.id}`, maria)).json();
      expect((await post(`/api/Demographics/adults/${james.id}`, maria, { ...jd, firstName: 'Jim', userDefinedFields: answered(jd.userDefinedFields) })).statusCode).toBe(403);
      expect((await get(`/api/Demographics/children/${sofia.id}/details`, maria)).statusCode).toBe(403);
    } finally {
      await db.update(s.accounts).set({ suspended: false }).where(eq(s.accounts.id, acc.id));
    }
    expect((await adultNamed('James')).firstName).toBe('James');
    // the payment-only secondary sees none of this
    expect((await get('/api/Demographics/adults/details/0', ana)).statusCode).toBe(403);
    expect((await get('/api/Demographics/adults/pin', ana)).statusCode).toBe(403);
  });
  it("a provider overlay makes a contact field optional and hides a medical question, without code", async () => {
    // Northridge's overlay: gender is optional for holders; Bright Path keeps it required
    const linhAdult = await adultNamed('Linh');
    const ld = (await get(`/api/Demographics/adults/details/${linhAdult.id}`, linh)).json();
    const linhBody = { ...ld, genderCode: undefined, userDefinedFields: answered(ld.userDefinedFields) };
    const okNorth = await post(`/api/Demographics/adults/${linhAdult.id}`, linh, linhBody);
    expect(okNorth.statusCode, okNorth.body).toBe(200);
    const m = await adultNamed('Maria');
    const md = (await get(`/api/Demographics/adults/details/${m.id}`, maria)).json();
    const noGender = await post(`/api/Demographics/adults/${m.id}`, maria, { ...md, genderCode: undefined, userDefinedFields: answered(md.userDefinedFields) });
    expect(noGender.statusCode).toBe(400);
    expect(noGender.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/genderCode', key: 'errors.required' })]));

    // Northridge's overlay hides medical question 3 (medical conditions): not asked, not required
    const answerAllBut3 = (qs: { fieldID: number }[]) => qs.map((q) => (q.fieldID === 3 ? { ...q, answer: undefined } : { ...q, answer: false, standardValues: undefined, explanation: undefined }));
    const an = await childNamed('An');
    const anMed = (await get(`/api/Demographics/children/${an.id}/medical-information`, linh)).json();
    expect(anMed.questions.map((q: { fieldID: number }) => q.fieldID)).toEqual([1, 2, 3, 4, 5]);
    const north = await post(`/api/Demographics/children/${an.id}/medical-information`, linh, { ...anMed, questions: answerAllBut3(anMed.questions) });
    expect(north.statusCode, north.body).toBe(200);
    const lucas = await childNamed('Lucas');
    const lucasMed = (await get(`/api/Demographics/children/${lucas.id}/medical-information`, maria)).json();
    const bright = await post(`/api/Demographics/children/${lucas.id}/medical-information`, maria, { ...lucasMed, questions: answerAllBut3(lucasMed.questions) });
    expect(bright.statusCode).toBe(400);
    expect(bright.json().errors).toEqual([expect.objectContaining({ path: '/questions/2/answer', key: 'errors.required' })]);
  });
});
