import { DECISION_LEVELS, FAILURE_CLASSES } from '@tokencircuit/contracts';
import { usageError } from '../io/exit-codes.js';
import type { AuditFilters } from '../api/api-types.js';

export interface FilterOptions {
  readonly from?: string;
  readonly to?: string;
  readonly class?: string;
  readonly level?: string;
  readonly tool?: string;
  readonly principal?: string;
  readonly run?: string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The audit filters checked before any request, so a typo is a usage error naming the option and the
 * accepted values, not a round trip. Times must be ISO 8601 with an offset, as the API requires.
 */
export function auditFilters(options: FilterOptions): AuditFilters {
  const oneOf = (name: string, value: string | undefined, allowed: readonly string[]) => {
    if (value !== undefined && !allowed.includes(value)) {
      throw usageError(`--${name}: "${value}" is not one of ${allowed.join(', ')}`);
    }
    return value;
  };
  const instant = (name: string, value: string | undefined) => {
    if (value !== undefined && (!ISO_INSTANT.test(value) || Number.isNaN(Date.parse(value)))) {
      throw usageError(`--${name}: "${value}" is not an ISO 8601 instant with an offset (e.g. 2026-03-01T09:00:00Z)`);
    }
    return value;
  };
  const text = (name: string, value: string | undefined) => {
    if (value !== undefined && value.trim() === '') throw usageError(`--${name}: must not be empty`);
    return value;
  };
  const filters: AuditFilters = {
    from: instant('from', options.from),
    to: instant('to', options.to),
    class: oneOf('class', options.class, FAILURE_CLASSES),
    level: oneOf('level', options.level, DECISION_LEVELS),
    tool: text('tool', options.tool),
    principal: text('principal', options.principal),
    run: text('run', options.run),
  };
  if (filters.from && filters.to && Date.parse(filters.from) >= Date.parse(filters.to)) {
    throw usageError('--to: must be later than --from');
  }
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as AuditFilters;
}

/** --class --level --tool --principal --run (and --from --to for listings). */
export function filterOptionHelp(): Array<[flag: string, description: string]> {
  return [
    ['--class <class>', `failure class: ${FAILURE_CLASSES.join(', ')}`],
    ['--level <level>', `decision level: ${DECISION_LEVELS.join(', ')}`],
    ['--tool <tool>', 'tool name'],
    ['--principal <principal>', 'principal'],
    ['--run <run>', 'run id'],
  ];
}
