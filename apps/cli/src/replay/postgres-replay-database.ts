import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { explainConnectionError, MIGRATIONS_FOLDER, pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { CliError, EXIT } from '../io/exit-codes.js';
import { quoteSchema, type ReplayDatabase } from './replay-database.js';

/**
 * Replay on Postgres. The live side is one connection in a REPEATABLE READ, READ ONLY transaction:
 * the events and the states are read from the same snapshot while a running projector goes on
 * committing (it writes events and states together, so any snapshot is consistent). The rebuilt
 * side connects with search_path set to the replay schema only, so no unqualified name can reach
 * the live tables.
 */
export async function openPostgresReplay(databaseUrl: string): Promise<ReplayDatabase> {
  const snapshot = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await snapshot.connect();
  } catch (error) {
    throw new CliError(`cannot connect: ${(explainConnectionError(error, databaseUrl) as Error).message}`, EXIT.usage);
  }
  await snapshot.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const { rows } = await snapshot.query<{ schema: string }>('SELECT current_schema() AS schema');
  const liveSchema = rows[0]!.schema;
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const replays: SqlDatabase[] = [];

  return {
    description: redacted(databaseUrl),
    liveSchema,
    live: {
      query: async <R>(text: string, params?: readonly unknown[]) => ({
        rows: (await snapshot.query(text, params as unknown[])).rows as R[],
      }),
    },
    async openReplaySchema(schema) {
      await admin.query(`CREATE SCHEMA ${quoteSchema(schema)}`);
      const options = `-c search_path=${schema}`;
      const migrator = new pg.Client({ connectionString: databaseUrl, options });
      await migrator.connect();
      try {
        // The migration history goes inside the replay schema too, so the live database's history never sees this run.
        await migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: schema });
      } finally {
        await migrator.end();
      }
      const db = pgDatabase(new pg.Pool({ connectionString: databaseUrl, options, max: 2 }));
      replays.push(db);
      return db;
    },
    async dropSchema(schema) {
      await admin.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
    },
    async close() {
      await snapshot.query('COMMIT').catch(() => undefined);
      await snapshot.end();
      for (const db of replays) await db.close();
      await admin.end();
    },
  };
}

const redacted = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database';
  }
};
