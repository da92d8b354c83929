// Spec 8.1, 8.2: a provider the database knows but whose portal has no declaration set (added after the
// start, or its overlays refused) answers 503 with the key the client turns into /configurationerror;
// an unknown provider answers 'no configuration data for' (the client's /invalidurl).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, type TestApp } from './helpers';
import { providers } from '../../server/db/schema';

describe.each(BACKENDS)('configuration error on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
    const [bright] = await t.db.handle.db.select().from(providers).where(eq(providers.appName, 'brightpath'));
    const { id: _id, ...record } = bright;
    await t.db.handle.db.insert(providers).values({ ...record, appName: 'lakeside', customerID: 990001, programName: 'Lakeside Kids' });
  });
  afterAll(async () => t?.close());

  const get = (url: string, lang = 'en') => t.app.inject({ method: 'GET', url, headers: { 'accept-language': lang } });

  it('a provider without a declaration set: its record loads, its declarations answer 503 with the key, in the language asked', async () => {
    expect((await get('/api/Customer/program?appName=lakeside')).json()).toMatchObject({ appName: 'lakeside', programName: 'Lakeside Kids' });
    const res = await get('/api/Customer/declarations?appName=lakeside', 'es');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ statusCode: 503, key: 'server.errors.declarationsUnavailable', message: 'Las pantallas del programa se están actualizando. Inténtelo de nuevo en unos minutos.' });
    // the providers with a set are not affected
    expect((await get('/api/Customer/declarations?appName=brightpath')).statusCode).toBe(200);
  });

  it('a reload builds the set of a provider added since the start', async () => {
    await t.app.deps.declarations.reload();
    const res = await get('/api/Customer/declarations?appName=lakeside');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().screens)).toContain('configurationerror');
  });

  it('an unknown provider is not a configuration error: no configuration data', async () => {
    const res = await get('/api/Customer/declarations?appName=nowhere');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('no configuration data for nowhere');
  });
});
