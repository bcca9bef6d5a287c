// npm run migrate: creates the database if it is missing, then applies pending migrations.
// DATABASE_URL defaults to the local development server.
import { describeDatabaseUrl, ensureDatabase, migrate } from '@tokencircuit/storage';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tokencircuit';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  const where = describeDatabaseUrl(databaseUrl);
  const created = await ensureDatabase(databaseUrl);
  if (created) console.log(`Created database ${where}`);
  await migrate(databaseUrl);
  console.log(`Migrations applied to ${where}`);
}

main().catch((error: unknown) => {
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
