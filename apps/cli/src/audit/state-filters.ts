import { FAILURE_CLASSES } from '@tokencircuit/contracts';
import { usageError } from '../io/exit-codes.js';

/** Filters of GET /v1/state (the API's names). */
export interface StateFilters {
  readonly blocked?: 'true';
  readonly principal?: string;
  readonly tool?: string;
  readonly class?: string;
  readonly scope?: string;
  readonly run?: string;
}

export interface StateFilterOptions {
  readonly blocked?: boolean;
  readonly principal?: string;
  readonly tool?: string;
  readonly class?: string;
  readonly scope?: string;
  readonly run?: string;
}

const SCOPES = ['fleet', 'run'] as const;

/** The listing filters, checked before any request so a typo is a usage error naming the option. */
export function stateFilters(options: StateFilterOptions): StateFilters {
  const oneOf = (name: string, value: string | undefined, allowed: readonly string[]) => {
    if (value !== undefined && !allowed.includes(value)) {
      throw usageError(`--${name}: "${value}" is not one of ${allowed.join(', ')}`);
    }
    return value;
  };
  const text = (name: string, value: string | undefined) => {
    if (value !== undefined && value.trim() === '') throw usageError(`--${name}: must not be empty`);
    return value;
  };
  const filters: StateFilters = {
    blocked: options.blocked ? 'true' : undefined,
    principal: text('principal', options.principal),
    tool: text('tool', options.tool),
    class: oneOf('class', options.class, FAILURE_CLASSES),
    scope: oneOf('scope', options.scope, SCOPES),
    run: text('run', options.run),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as StateFilters;
}

/** True when any listing option was given (they make no sense with a key id). */
export const hasStateFilters = (options: StateFilterOptions): boolean =>
  Object.values(stateFilters(options)).some((v) => v !== undefined);

export const STATE_FILTER_HELP: Array<[flag: string, description: string]> = [
  ['--blocked', 'only keys whose next attempt is refused now (blocked, exhausted, awaiting verification)'],
  ['--principal <principal>', 'principal'],
  ['--tool <tool>', 'tool name'],
  ['--class <class>', `failure class: ${FAILURE_CLASSES.join(', ')}`],
  ['--scope <scope>', 'fleet or run'],
  ['--run <run>', 'run id'],
];
