import type { CliIo } from '../io/cli-io.js';
import { usageError } from '../io/exit-codes.js';
import { openPgliteReplay, pgliteFolder } from './pglite-replay-database.js';
import { openPostgresReplay } from './postgres-replay-database.js';
import type { ReplayDatabase } from './replay-database.js';

export interface DatabaseOptions {
  readonly databaseUrl?: string;
  readonly dataDir?: string;
  readonly force?: boolean;
}

/** --database-url, else $DATABASE_URL, else the embedded PGlite folder of --data-dir / $TOKENCIRCUIT_DATA_DIR / ./.data. */
export async function openReplayDatabase(options: DatabaseOptions, io: CliIo): Promise<ReplayDatabase> {
  const url = options.databaseUrl ?? (options.dataDir ? undefined : io.env.DATABASE_URL);
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url))
      throw usageError('--database-url: must be a postgres:// or postgresql:// URL');
    return openPostgresReplay(url);
  }
  const folder = pgliteFolder(
    options.dataDir ?? io.env.TOKENCIRCUIT_DATA_DIR ?? '.data',
    io.cwd,
    options.force === true,
  );
  return openPgliteReplay(folder);
}
