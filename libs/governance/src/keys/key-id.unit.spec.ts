import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StateKey } from '../model.js';
import { keyCoordinatesOf, keyIdOf } from './key-id.js';

const fleetKey = (over: Partial<StateKey> = {}): StateKey => ({
  scope: 'fleet',
  tenant: 'acme',
  run: null,
  principal: 'svc-bot',
  resourceId: 'finance.salaries',
  equivalenceKey: {
    tool_name: 'sql_query',
    resource_class: 'sql_namespace',
    auth_scope: 'read:finance',
    error_class: 'permission',
    side_effect_boundary: false,
  },
  ...over,
});

describe('keyIdOf', () => {
  it('reads like the key it names', () => {
    expect(keyIdOf(fleetKey())).toBe(
      'fleet|acme|p=svc-bot|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0',
    );
  });

  it('writes null as "~" and run keys with their run', () => {
    const key: StateKey = {
      scope: 'run',
      tenant: 'acme',
      run: 'run-7',
      principal: null,
      resourceId: null,
      equivalenceKey: {
        tool_name: 'http_request',
        resource_class: 'api_endpoint',
        auth_scope: null,
        error_class: 'transient',
        side_effect_boundary: true,
      },
    };
    expect(keyIdOf(key)).toBe('run|acme|run=run-7|http_request|api_endpoint|~|transient|seb=1');
  });

  it('escapes separators inside values, so odd values cannot collide', () => {
    const tricky = keyIdOf(fleetKey({ principal: 'a|r=b' }));
    const plain = keyIdOf(fleetKey({ principal: 'a', resourceId: 'b|finance.salaries' }));
    expect(tricky).not.toBe(plain);
    expect(keyIdOf(fleetKey({ principal: '~' }))).not.toBe(keyIdOf(fleetKey({ principal: null })));
    expect(tricky).toContain('p=a%7Cr%3Db');
  });

  it('is injective over raw fields', () => {
    const field = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 6, unit: fc.constantFrom('a', '|', '=', '~', '%', '-') }),
    );
    const key = fc.record({
      principal: field,
      resourceId: field,
      tool: fc.string({ maxLength: 4, unit: fc.constantFrom('t', '|', '%') }),
      resourceClass: field,
      authScope: field,
    });
    fc.assert(
      fc.property(key, key, (a, b) => {
        const build = (k: typeof a) =>
          keyIdOf(
            fleetKey({
              principal: k.principal,
              resourceId: k.resourceId,
              equivalenceKey: {
                tool_name: k.tool,
                resource_class: k.resourceClass,
                auth_scope: k.authScope,
                error_class: 'permission',
                side_effect_boundary: false,
              },
            }),
          );
        expect(build(a) === build(b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
    );
  });

  it('is read back into the coordinates a store indexes the key by (keyCoordinatesOf), whatever the raw fields hold', () => {
    const text = fc.string({ maxLength: 6, unit: fc.constantFrom('a', '|', '=', '~', '%', '-', 'p', 'r', '7C') });
    const field = fc.oneof(fc.constant(null), text);
    fc.assert(
      fc.property(
        fc.boolean(),
        text,
        text,
        field,
        field,
        text,
        field,
        field,
        (fleet, tenant, run, principal, resourceId, tool, rc, auth) => {
          const equivalenceKey = {
            tool_name: tool,
            resource_class: rc,
            auth_scope: auth,
            error_class: 'permission' as const,
            side_effect_boundary: false,
          };
          const key: StateKey = fleet
            ? { scope: 'fleet', tenant, run: null, principal, resourceId, equivalenceKey }
            : { scope: 'run', tenant, run, principal, resourceId: null, equivalenceKey };
          expect(keyCoordinatesOf(keyIdOf(key))).toEqual(
            fleet ? { scope: 'fleet', tenant, principal, resourceId, tool } : { scope: 'run', tenant, run, tool },
          );
        },
      ),
    );
    for (const noKey of [
      '',
      'run|acme',
      'fleet|acme|x=1|r=2|t|c|a|permission|seb=0',
      'run|~|run=r|t|c|a|transient|seb=0',
    ])
      expect(keyCoordinatesOf(noKey)).toBeNull();
  });
});
