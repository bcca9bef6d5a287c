import type { AuditPageRequest } from './read-audit-page.js';

/**
 * WHERE clause and parameters of an audit page: every filter a bound parameter, never SQL text. No tenant
 * predicate on purpose: the page is read under the tenant's row-level security.
 */
export function auditPageWhere(request: AuditPageRequest): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  const f = request.filter;
  if (f.from !== null) add((p) => `issued_at >= ${p}::timestamptz`, f.from);
  if (f.to !== null) add((p) => `issued_at < ${p}::timestamptz`, f.to);
  if (f.failureClass !== null) add((p) => `failure_class = ${p}`, f.failureClass);
  if (f.level !== null) add((p) => `level = ${p}`, f.level);
  if (f.tool !== null) add((p) => `tool_name = ${p}`, f.tool);
  if (f.principal !== null) add((p) => `principal = ${p}`, f.principal);
  if (f.run !== null) add((p) => `run = ${p}`, f.run);
  if (request.afterSeq !== null) add((p) => `seq ${request.order === 'asc' ? '>' : '<'} ${p}`, request.afterSeq);
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
