import { describe, expect, it } from 'vitest';
import { CliError } from '../io/exit-codes.js';
import { auditFilters } from './audit-filters.js';

const refusal = (options: Parameters<typeof auditFilters>[0]): CliError => {
  try {
    auditFilters(options);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a usage error');
};

describe('auditFilters: the API filters, checked before any request', () => {
  it('passes the given filters under the API names and leaves out the absent ones', () => {
    expect(auditFilters({ class: 'permission', level: 'block', run: 'run-7', from: '2026-03-01T09:00:00Z' })).toEqual({
      class: 'permission',
      level: 'block',
      run: 'run-7',
      from: '2026-03-01T09:00:00Z',
    });
  });

  it('an unknown class or level is a usage error (exit 2) listing the accepted values', () => {
    const error = refusal({ class: 'auth' });
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/--class: "auth" is not one of transient, validation, permission/);
    expect(refusal({ level: 'warn' }).message).toMatch(/--level: "warn" is not one of advise, block, page/);
  });

  it('times must be ISO 8601 instants with an offset, and --to must follow --from', () => {
    expect(refusal({ from: 'yesterday' }).message).toMatch(/--from: "yesterday" is not an ISO 8601 instant/);
    expect(refusal({ to: '2026-03-01T09:00:00' }).message).toMatch(/--to/);
    expect(refusal({ from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' }).message).toMatch(/later than --from/);
  });

  it('an empty text filter is refused rather than sent', () => {
    expect(refusal({ tool: ' ' }).message).toBe('--tool: must not be empty');
  });
});
