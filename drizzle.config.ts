import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --name=<what>` diffs the table files against migrations/meta and writes
// the next migration. Triggers, RLS, roles and SQL functions live in hand-written migrations made
// with `npx drizzle-kit generate --custom --name=<what>`; drizzle-kit does not see those, so never
// use `drizzle-kit push` (it would not know them). Apply with `npm run migrate`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/storage/src/tables/*.ts',
  out: './migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tokencircuit' },
  strict: true,
  verbose: true,
});
