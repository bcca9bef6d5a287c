import type { DiagnosticArtifact } from '@tokencircuit/contracts';
import type { SqlSession } from '../sql-database.js';
import type { InterventionRecord } from './intervention-record.js';
import {
  INTERVENTION_RECORD_COLUMNS,
  toInterventionRecord,
  type InterventionRecordRow,
} from './intervention-record-row.js';

/** One intervention with its diagnostic artifact. */
export interface InterventionWithArtifact extends InterventionRecord {
  readonly artifact: DiagnosticArtifact;
}

/** The intervention with this id, or null; under withTenant another tenant's id finds nothing. */
export async function readIntervention(session: SqlSession, id: string): Promise<InterventionWithArtifact | null> {
  const { rows } = await session.query<InterventionRecordRow & { artifact: DiagnosticArtifact }>(
    `SELECT ${INTERVENTION_RECORD_COLUMNS}, artifact FROM interventions WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? { ...toInterventionRecord(row), artifact: row.artifact } : null;
}
