import { describe, expect, it } from 'vitest';
import { keyIdOf, type FailureState } from '@tokencircuit/governance';

type StateKey = FailureState['key'];
import { lockNamesOf } from './apply-chunk.js';

const equivalenceKey = {
  tool_name: 'sql|query',
  resource_class: 'sql_namespace',
  auth_scope: 'finance:read',
  error_class: 'permission' as const,
  side_effect_boundary: false,
};
const none = { runTools: [], fleetResources: [], keyIds: [] };

describe('lockNamesOf: one lock per failure_state row, whichever way a chunk reaches it', () => {
  it('locks a run key named by id as the chunks that reach it through its run and tool', () => {
    const key: StateKey = {
      scope: 'run',
      tenant: 'acme',
      run: 'r=7',
      principal: 'svc',
      resourceId: 'x',
      equivalenceKey,
    };
    expect(lockNamesOf({ ...none, keyIds: [keyIdOf(key)] })).toEqual(
      lockNamesOf({ ...none, runTools: [['acme', 'r=7', 'sql|query']] }),
    );
  });

  it("locks a fleet key named by id as the chunks that reach it through its principal's resource", () => {
    const key: StateKey = {
      scope: 'fleet',
      tenant: 'acme',
      run: null,
      principal: 'svc~bot',
      resourceId: null,
      equivalenceKey,
    };
    expect(lockNamesOf({ ...none, keyIds: [keyIdOf(key)] })).toEqual(
      lockNamesOf({ ...none, fleetResources: [['acme', 'svc~bot', null]] }),
    );
    // Another resource of the same principal is another lock.
    expect(lockNamesOf({ ...none, keyIds: [keyIdOf(key)] })).not.toEqual(
      lockNamesOf({ ...none, fleetResources: [['acme', 'svc~bot', 'finance.salaries']] }),
    );
  });

  it('gives an id no key has a lock of its own (no row can be behind it)', () => {
    const [name] = lockNamesOf({ ...none, keyIds: ['not-a-key-id'] });
    expect(name).toMatch(/^key:/);
  });
});
