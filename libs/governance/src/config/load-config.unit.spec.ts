import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError } from './load-config.js';
import { policyVersion } from './policy-version.js';
import { budgetFor, emptyResultNeedsVerification, overrideCovers, scopeFor } from './policy-lookup.js';

const problemsOf = (input: unknown): readonly string[] => {
  try {
    loadConfig(input);
  } catch (error) {
    if (error instanceof TokenCircuitConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to refuse the input');
};

describe('TokenCircuitConfig defaults follow the RFC table', () => {
  it('gives transient +2, validation +1, permission 0, missing_resource +1, ambiguous_effect +1, invariant 0', () => {
    const budgets = Object.fromEntries(Object.entries(DEFAULT_CONFIG.classes).map(([c, p]) => [c, p.budget]));
    expect(budgets).toEqual({
      transient: 2,
      validation: 1,
      permission: 0,
      missing_resource: 1,
      ambiguous_effect: 1,
      invariant_violation: 0,
    });
  });

  it('scopes permission and invariant_violation to the fleet and the rest to the run', () => {
    const scopes = Object.fromEntries(Object.entries(DEFAULT_CONFIG.classes).map(([c, p]) => [c, p.scope]));
    expect(scopes).toEqual({
      transient: 'run',
      validation: 'run',
      permission: 'fleet',
      missing_resource: 'run',
      ambiguous_effect: 'run',
      invariant_violation: 'fleet',
    });
  });

  it('backs off from 500 ms up to 30 s and has no unsafe override', () => {
    expect(DEFAULT_CONFIG.backoff).toEqual({ baseMs: 500, capMs: 30_000 });
    expect(DEFAULT_CONFIG.unsafeOverride).toBeNull();
  });

  it('treats undefined and {} alike', () => {
    expect(loadConfig(undefined)).toEqual(loadConfig({}));
  });

  it('is deeply frozen, so nobody can loosen a loaded policy at run time', () => {
    const config = loadConfig({ tools: { search: { budgets: { transient: 4 } } } });
    expect(Object.isFrozen(config.classes.transient)).toBe(true);
    expect(Object.isFrozen(config.tools['search']!.budgets)).toBe(true);
  });
});

describe('per-deployment budgets (RFC open question 1)', () => {
  const config = loadConfig({
    classes: { transient: { budget: 3 }, validation: { scope: 'fleet' } },
    tools: { search_api: { budgets: { transient: 5 }, emptyResultNeedsVerification: false } },
  });

  it('a tool override wins over the class budget, which wins over the RFC default', () => {
    expect(budgetFor(config, 'search_api', 'transient')).toBe(5);
    expect(budgetFor(config, 'sql_query', 'transient')).toBe(3);
    expect(budgetFor(config, 'sql_query', 'missing_resource')).toBe(1);
  });

  it('keeps the parts it was not given', () => {
    expect(config.classes.validation).toEqual({ budget: 1, scope: 'fleet' });
    expect(scopeFor(config, 'validation')).toBe('fleet');
  });

  it('asks for empty-result verification unless the tool says otherwise', () => {
    expect(emptyResultNeedsVerification(config, 'search_api')).toBe(false);
    expect(emptyResultNeedsVerification(config, 'sql_query')).toBe(true);
  });

  it('does not mistake Object.prototype members for tool policies', () => {
    expect(budgetFor(config, 'constructor', 'transient')).toBe(3);
    expect(budgetFor(config, 'toString', 'validation')).toBe(1);
  });

  it('refuses a tool literally named "__proto__" (as parsed from JSON) instead of dropping its policy', () => {
    expect(() => loadConfig(JSON.parse('{"tools":{"__proto__":{"budgets":{"transient":1}}}}'))).toThrow(
      /tools\.__proto__: "__proto__" cannot be used as a tool name/,
    );
  });
});

describe('safety floors: permission and invariant budgets stay 0 without an audited override', () => {
  it('refuses a class budget above 0 for permission and says what is required', () => {
    const [problem] = problemsOf({ classes: { permission: { budget: 1 } } });
    expect(problem).toMatch(/^classes\.permission\.budget: /);
    expect(problem).toMatch(/audited unsafeOverride naming "permission"/);
  });

  it('refuses a per-tool budget above 0 for invariant_violation', () => {
    expect(problemsOf({ tools: { payments: { budgets: { invariant_violation: 2 } } } })).toEqual([
      expect.stringMatching(
        /^tools\.payments\.budgets\.invariant_violation: .*unsafeOverride naming "invariant_violation"/,
      ),
    ]);
  });

  it('an override naming permission does not lift the invariant floor', () => {
    const problems = problemsOf({
      classes: { permission: { budget: 1 }, invariant_violation: { budget: 1 } },
      unsafeOverride: { classes: ['permission'], approvedBy: 'ciso@acme', reason: 'migration window' },
    });
    expect(problems).toEqual([expect.stringMatching(/^classes\.invariant_violation\.budget/)]);
  });

  it('accepts a raised permission budget with an audited override and records it', () => {
    const config = loadConfig({
      classes: { permission: { budget: 1 } },
      unsafeOverride: {
        classes: ['permission'],
        approvedBy: 'ciso@acme',
        reason: 'migration window',
        ticket: 'SEC-42',
      },
    });
    expect(config.classes.permission.budget).toBe(1);
    expect(config.unsafeOverride).toEqual({
      classes: ['permission'],
      approvedBy: 'ciso@acme',
      reason: 'migration window',
      ticket: 'SEC-42',
    });
    expect(overrideCovers(config, 'permission')).toBe(true);
    expect(overrideCovers(config, 'invariant_violation')).toBe(false);
  });

  it('an override needs a named approver and a reason', () => {
    expect(problemsOf({ unsafeOverride: { classes: ['permission'], approvedBy: ' ', reason: 'x' } })).toEqual([
      expect.stringMatching(/^unsafeOverride\.approvedBy: /),
    ]);
    expect(problemsOf({ unsafeOverride: { classes: ['transient'], approvedBy: 'a', reason: 'b' } })).toEqual([
      expect.stringMatching(/^unsafeOverride\.classes\.0: /),
    ]);
  });
});

describe('bad policies get an error naming the field', () => {
  it.each([
    [{ classes: { transient: { budget: -1 } } }, /^classes\.transient\.budget: /],
    [{ classes: { transient: { budget: 1.5 } } }, /^classes\.transient\.budget: /],
    [{ classes: { transient: { budget: 51 } } }, /^classes\.transient\.budget: /],
    [{ classes: { transient: { scope: 'global' } } }, /^classes\.transient\.scope: /],
    [{ classes: { timeout: { budget: 1 } } }, /^classes: .*timeout/],
    [{ tools: { search: { budgets: { flaky: 3 } } } }, /^tools\.search\.budgets/],
    [{ tools: { search: { emptyResultNeedsVerification: 'no' } } }, /^tools\.search\.emptyResultNeedsVerification: /],
    [{ backoff: { baseMs: 0 } }, /^backoff\.baseMs: /],
    [{ backoff: { baseMs: 1000, capMs: 500 } }, /^backoff\.capMs: must be at least backoff\.baseMs/],
    [{ budgets: {} }, /budgets/],
    ['transient=2', /^\(config\): /],
  ])('%j', (input, message) => {
    expect(problemsOf(input)[0]).toMatch(message);
  });

  it('the thrown message lists the problems too', () => {
    expect(() => loadConfig({ backoff: { capMs: -5 } })).toThrow(/invalid TokenCircuitConfig: backoff\.capMs/);
  });
});

describe('policyVersion', () => {
  it('is "sha256:" and 64 hex digits', () => {
    expect(policyVersion(DEFAULT_CONFIG)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('does not depend on the order keys were written in', () => {
    const a = loadConfig({
      classes: { transient: { budget: 3, scope: 'run' } },
      backoff: { baseMs: 200, capMs: 9000 },
    });
    const b = loadConfig({
      backoff: { capMs: 9000, baseMs: 200 },
      classes: { transient: { scope: 'run', budget: 3 } },
    });
    expect(policyVersion(a)).toBe(policyVersion(b));
  });

  it('an explicit default and an omitted one are the same policy', () => {
    expect(policyVersion(loadConfig({ classes: { transient: { budget: 2 } } }))).toBe(policyVersion(DEFAULT_CONFIG));
  });

  it('changes with any change of content', () => {
    const versions = [
      DEFAULT_CONFIG,
      loadConfig({ classes: { transient: { budget: 3 } } }),
      loadConfig({ backoff: { baseMs: 501 } }),
      loadConfig({ tools: { search: { emptyResultNeedsVerification: false } } }),
      loadConfig({ classes: { permission: { scope: 'run' } } }),
    ].map(policyVersion);
    expect(new Set(versions).size).toBe(versions.length);
  });
});
