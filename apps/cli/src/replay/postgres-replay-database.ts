import { Infrastructure } from '@tokencircuit/composition/infrastructure';
import {
  beginReadSnapshot,
  createSchema,
  dropSchema,
  endReadSnapshot,
  explainConnectionError,
  migrate,
  pgSession,
  readCurrentSchema,
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
  // The composition root's clients, without Kafka: the snapshot connection and the admin's, then a pool per replay schema.
  const infra = new Infrastructure(undefined, 'cli-replay');
  let snapshot;
  try {
    snapshot = await infra.pool(databaseUrl, 2, { connectionTimeoutMillis: 10_000 }).connect();
  } catch (error) {
    await infra.close();
    throw new CliError(`cannot connect: ${(explainConnectionError(error, databaseUrl) as Error).message}`, EXIT.usage);
  }
  const live = pgSession(snapshot);
  await beginReadSnapshot(live);
  const liveSchema = await readCurrentSchema(live);
  const admin = pgSession(infra.pool(databaseUrl, 0));

  return {
    description: redacted(databaseUrl),
    liveSchema,
    live,
    async openReplaySchema(schema) {
      await createSchema(admin, schema);
      // The migration history goes inside the replay schema too, so the live database's history never sees this run.
      await migrate(databaseUrl, { schema });
      return infra.database(databaseUrl, 2, { options: `-c search_path=${schema}` });
    },
    async dropSchema(schema) {
      await dropSchema(admin, schema);
    },
    async close() {
      await endReadSnapshot(live).catch(() => undefined);
      snapshot.release();
      await infra.close();
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
