import { fileURLToPath } from 'node:url';

/** The repository's top-level migrations/ folder (drizzle-kit output plus hand-written SQL). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../migrations', import.meta.url));

export interface MigrateOptions {
  /** Override where the migration files are, e.g. when running from a bundle. */
  readonly migrationsFolder?: string;
  /**
   * Apply into this schema, created beforehand, instead of the default one: the migration history goes there
   * too, so the database's own history never sees the run (replay rebuilds into such a schema). With PGlite
   * the session's search_path must already point there (setSearchPath): it has one session to move.
   */
  readonly schema?: string;
}
