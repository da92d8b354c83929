// The database functions live in server/db/functions, one file each, applied after the migrations on
// every start: after openDb each is in the database with its file's body, applying them again (twice,
// and two at once on PostgreSQL) changes nothing, and no migration after 0020 restates a function.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './freshDatabase';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyFunctions, functionSources, openDb, type Db, type DbHandle } from '../../server/db/index';
import { BACKENDS, type Backend } from './helpers';

const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));

async function select<T>(db: Db, q: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await db.execute(q)) as unknown as { rows: T[] } | T[];
  return Array.isArray(r) ? r : r.rows;
}

/** The function's body between its dollar quotes (pg_get_functiondef chooses its own tag). */
const bodyOf = (text: string) => /\$(\w*)\$([\s\S]*)\$\1\$/.exec(text)?.[2].trim();

async function definitions(db: Db): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const f of functionSources()) {
    const rows = await select<{ def: string }>(db, sql`select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname = ${f.name}`);
    expect(rows, f.name).toHaveLength(1);
    out[f.name] = bodyOf(rows[0].def);
  }
  return out;
}

describe('the functions folder', () => {
  it('holds one CREATE OR REPLACE FUNCTION per file, named as its file', () => {
    const sources = functionSources();
    expect(sources.map((f) => f.name)).toEqual(['submit_application', 'submit_applications']);
    for (const f of sources) {
      const creates = [...f.sql.matchAll(/CREATE\s+(OR\s+REPLACE\s+)?FUNCTION\s+([a-z_0-9]+)/gi)];
      expect(creates.map((m) => [Boolean(m[1]), m[2]]), f.name).toEqual([[true, f.name]]);
      expect(bodyOf(f.sql), f.name).toBeTruthy();
    }
  });

  it('no migration after 0020 restates a function: a change edits its file', () => {
    const later = readdirSync(MIGRATIONS).filter((f) => /^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) > 20);
    expect(later.length).toBeGreaterThan(0);
    for (const f of later) expect(readFileSync(join(MIGRATIONS, f), 'utf8'), f).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i);
  });
});

/** A database kept between two openDb (a PGlite folder, or a PostgreSQL database of its own). */
async function storedDb(backend: Backend): Promise<{ open(): Promise<DbHandle>; dispose(): Promise<void> }> {
  if (backend === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'pp-functions-'));
    return { open: () => openDb({ pgliteDir: dir }), dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const fresh = await freshDatabase();
  return { open: () => openDb({ databaseUrl: fresh.url, poolSize: 3 }), dispose: fresh.drop };
}

describe.each(BACKENDS)('database functions after openDb (%s)', (backend) => {
  let stored: Awaited<ReturnType<typeof storedDb>>;
  let handle: DbHandle;
  let db: Db;
  beforeAll(async () => {
    stored = await storedDb(backend);
    // a function gone from the database (the migrations that made it ran already) is back after
    // the next openDb: the folder is applied on every start, not once
    const first = await stored.open();
    await first.db.execute(sql`drop function submit_applications(jsonb)`);
    await first.close();
    handle = await stored.open();
    db = handle.db;
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await stored?.dispose();
  });

  it("each function is in the database with its file's body", async () => {
    const defs = await definitions(db);
    for (const f of functionSources()) expect(defs[f.name], f.name).toBe(bodyOf(f.sql));
  });

  it('applying them again, twice and two at once, is harmless', async () => {
    const before = await definitions(db);
    await applyFunctions(db);
    await Promise.all([applyFunctions(db), applyFunctions(db)]);
    expect(await definitions(db)).toEqual(before);
    const [{ n }] = await select<{ n: number }>(db, sql`select count(*)::int as n from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' and p.proname like 'submit_application%'`);
    expect(Number(n)).toBe(2);
    // and they run: an empty batch answers an empty list
    const [{ out }] = await select<{ out: unknown }>(db, sql`select submit_applications('[]'::jsonb) as out`);
    expect(typeof out === 'string' ? JSON.parse(out) : out).toEqual([]);
  });
});
