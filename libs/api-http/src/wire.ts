/**
 * What a client of the HTTP API needs without loading the server: the response shapes (types only) and the
 * audit cursor format. The CLI imports this entry point (`@tokencircuit/api-http/wire`), not the index.
 */
export type {
  ChainReport,
  FailureStateRecord,
  InterventionDetail,
  InterventionPage,
  InterventionRecord,
} from './audit/audit-store.js';
export type { FailureStatePage, FailureStateSummary } from './state/state-list.js';
export type { PreflightResponse } from './preflight/preflight.controller.js';
export { encodeCursor, decodeCursor, type AuditCursor, type SortOrder } from './audit/audit-cursor.js';
