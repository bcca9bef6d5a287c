// npm run migrate: creates the database if it is missing, then applies pending migrations.
// DATABASE_URL (an administrative login that may create roles) defaults to the local development server;
// TOKENCIRCUIT_<SERVICE>_DB_PASSWORD sets the password of each service's login role (docs/security.md).
import { describeDatabaseUrl, ensureDatabase, migrate, setServiceRolePasswords } from '@tokencircuit/storage';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tokencircuit';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  const where = describeDatabaseUrl(databaseUrl);
  const created = await ensureDatabase(databaseUrl);
  if (created) console.log(`Created database ${where}`);
  await migrate(databaseUrl);
  console.log(`Migrations applied to ${where}`);
  // The services' login roles exist now (migration 0016); give them the passwords the operator chose.
  const withPassword = await setServiceRolePasswords(databaseUrl, process.env);
  if (withPassword.length > 0) console.log(`Passwords set for ${withPassword.join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(`migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
