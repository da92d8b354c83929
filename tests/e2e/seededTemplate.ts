// Global set-up of the browser tests: one server started on default settings seeds the demo data,
// and is stopped; every later server on default settings starts on a copy of that database
// (harness.ts, seededCopy) instead of seeding its own.
import fs from 'node:fs';
import path from 'node:path';
import { markSeeded, removeSeeded, startServer } from './harness';

export default async function setup(): Promise<(() => void) | undefined> {
  // without a build the first test says what is missing
  if (!fs.existsSync(path.resolve(import.meta.dirname, '../../dist/index.html'))) return undefined;
  const server = await startServer();
  await server.halt();
  markSeeded(server.dataDir);
  process.env.PP_E2E_SEEDED_DIR = server.dataDir;
  return () => removeSeeded(server.dataDir);
}
