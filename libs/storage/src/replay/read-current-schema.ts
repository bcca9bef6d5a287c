import type { SqlSession } from '../sql-database.js';

/** The schema the session's unqualified names resolve to (the first of its search_path that exists). */
export async function readCurrentSchema(session: SqlSession): Promise<string> {
  const { rows } = await session.query<{ schema: string }>('SELECT current_schema() AS schema');
  return rows[0]!.schema;
}
