import { toCsv, type CsvValue } from './csv.js';
import type { InterventionRecord } from './audit-store.js';

/** Column order of the CSV export (documented in docs/audit.md; append, never reorder). */
const COLUMNS: ReadonlyArray<readonly [string, (r: InterventionRecord) => CsvValue]> = [
  ['seq', (r) => r.seq],
  ['id', (r) => r.id],
  ['issued_at', (r) => r.issuedAt],
  ['tenant', (r) => r.tenant],
  ['agent', (r) => r.agent],
  ['run', (r) => r.run],
  ['principal', (r) => r.principal],
  ['level', (r) => r.level],
  ['failure_class', (r) => r.failureClass],
  ['next_action', (r) => r.nextAction],
  ['tool_name', (r) => r.toolName],
  ['resource_class', (r) => r.resourceClass],
  ['auth_scope', (r) => r.authScope],
  ['resource_id', (r) => r.resourceId],
  ['safety_justification', (r) => r.safetyJustification],
  ['policy_version', (r) => r.policyVersion],
  ['state_version', (r) => r.stateVersion],
  ['key_id', (r) => r.keyId],
  ['causing_event_ids', (r) => r.causingEventIds.join(' ')],
  ['hash', (r) => r.hash],
];

export const interventionsCsv = (rows: readonly InterventionRecord[]): string => toCsv(COLUMNS, rows);
