/**
 * The API's response shapes, taken from the API's own source so a change there fails the CLI's type
 * check instead of its users (type-only: nothing of the API is loaded at run time).
 */
export type * from '@tokencircuit/api-http/wire';

/** Filters of GET /v1/audit/interventions (the API's names). */
export interface AuditFilters {
  readonly from?: string;
  readonly to?: string;
  readonly class?: string;
  readonly level?: string;
  readonly tool?: string;
  readonly principal?: string;
  readonly run?: string;
}
