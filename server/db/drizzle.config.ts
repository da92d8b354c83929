import { defineConfig } from 'drizzle-kit';

// Migrations are generated from server/db/schema.ts (npx drizzle-kit generate --config server/db/drizzle.config.ts)
// and applied on start by server/db/index.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
