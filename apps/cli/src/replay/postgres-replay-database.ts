import pg from 'pg';
import {
  beginReadSnapshot,
  createSchema,
  dropSchema,
  endReadSnapshot,
  explainConnectionError,
  migrate,
  pgDatabase,
  pgSession,
  readCurrentSchema,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { CliError, EXIT } from '../io/exit-codes.js';
import type { ReplayDatabase } from './replay-database.js';

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
  const live = pgSession(snapshot);
  await beginReadSnapshot(live);
  const liveSchema = await readCurrentSchema(live);
  const adminPool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const admin = pgSession(adminPool);
  const replays: SqlDatabase[] = [];

  return {
    description: redacted(databaseUrl),
    liveSchema,
    live,
    async openReplaySchema(schema) {
      await createSchema(admin, schema);
      // The migration history goes inside the replay schema too, so the live database's history never sees this run.
      await migrate(databaseUrl, { schema });
      const options = `-c search_path=${schema}`;
      const db = pgDatabase(new pg.Pool({ connectionString: databaseUrl, options, max: 2 }));
      replays.push(db);
      return db;
    },
    async dropSchema(schema) {
      await dropSchema(admin, schema);
    },
    async close() {
      await endReadSnapshot(live).catch(() => undefined);
      await snapshot.end();
      for (const db of replays) await db.close();
      await adminPool.end();
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
