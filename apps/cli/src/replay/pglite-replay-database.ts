import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  createSchema,
  dropSchema,
  migratePglite,
  pgliteDatabase,
  readCurrentSchema,
  setSearchPath,
  type SqlSession,
} from '@tokencircuit/storage';
import { usageError } from '../io/exit-codes.js';
import type { ReplayDatabase } from './replay-database.js';

/**
 * The PGlite folder of a data dir: `<dir>/pglite` as `npm start` lays it out, or `<dir>` itself when
 * it is already a PGlite folder. PGlite can be opened by one process at a time and marks an open
 * folder with postmaster.pid (removed on a clean close; a crash leaves it), so that file means
 * "stop the server first" unless --force says the owner is gone.
 */
export function pgliteFolder(dataDir: string, cwd: string, force: boolean): string {
  const given = resolve(cwd, dataDir);
  const folder = existsSync(join(given, 'PG_VERSION')) ? given : join(given, 'pglite');
  if (!existsSync(join(folder, 'PG_VERSION'))) {
    throw usageError(
      `no PGlite database in ${given} (nor in ${folder}); start the embedded server once (npm start) or pass --database-url`,
    );
  }
  if (existsSync(join(folder, 'postmaster.pid')) && !force) {
    throw usageError(
      `${folder} is in use (postmaster.pid present): PGlite can be opened by one process at a time. ` +
        'Stop the server (Ctrl+C in the terminal running npm start) and run replay again; if no process has it open ' +
        '(a crashed server leaves the file behind), pass --force.',
    );
  }
  return folder;
}

/**
 * Replay on the embedded database. PGlite is one session: the rebuilt side is the same session with
 * search_path moved to the replay schema, so every live read is schema-qualified.
 */
export async function openPgliteReplay(folder: string): Promise<ReplayDatabase> {
  const pglite = new PGlite(folder);
  const db = pgliteDatabase(pglite);
  const liveSchema = await readCurrentSchema(db);
  const live: SqlSession = { query: (text, params) => db.query(text, params) };
  return {
    description: `PGlite at ${folder}`,
    liveSchema,
    live,
    async openReplaySchema(schema) {
      await createSchema(db, schema);
      await setSearchPath(db, schema);
      await migratePglite(pglite, { schema });
      return { ...db, close: async () => undefined }; // one session: closed once, by close() below
    },
    async dropSchema(schema) {
      await setSearchPath(db, liveSchema);
      await dropSchema(db, schema);
    },
    close: () => db.close(),
  };
}
