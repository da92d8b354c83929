// A fresh PostgreSQL database beside TEST_DATABASE_URL's, for a test that needs one of its own
// (created empty, dropped afterwards with whatever connections are left).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface FreshDatabase {
  /** the new database's address */
  url: string;
  /** drops it, closing any connections still open to it */
  drop(): Promise<void>;
}

async function onAdmin(adminUrl: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

export async function freshDatabase(prefix = 'pp_test', adminUrl = process.env.TEST_DATABASE_URL): Promise<FreshDatabase> {
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
