import { DiagnosticArtifactSchema } from '@tokencircuit/contracts';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { describe, expect, it } from 'vitest';
import { buildArtifact } from '../artifact/build-artifact.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { createGovernance } from '../governance.js';
import { canonicalJson } from '../support/canonical-json.js';
import { governanceSpec } from '../testing/spec.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * Issue 27.7: a key whose class changes within its episode says so in its artifact (from what, to what, by
 * which finding), so an intervention reading "validation" next to error_class=ambiguous_effect is explained.
 * The member is absent on keys never reclassified, so their artifacts are byte-for-byte what they were.
 */
describe('reclassification: the artifact says when, from what, to what and by which finding', () => {
  const timeline = new Timeline();
  const agent = new SpecAgent(timeline, 'acme', 'support-bot', 'run-4', {
    resourceClass: 'sql_namespace',
    resourceId: 'crm.tickets',
    effect: 'read',
  });
  const spec = governanceSpec();
  const keyId = 'run|acme|run=run-4|sql_query|sql_namespace|~|ambiguous_effect|seb=0';
  const query = agent.call('sql_query', { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'opne'" } });
  const empty = agent.succeeded(query, { empty: true, rowCount: 0 });
  const refuted = agent.verified(query, 'empty_result', 'refuted', { emptyCause: 'wrong_query' });
  const corrected = agent.retry(query, { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'open'" } });

  it('given an empty result, when the empty_result verifier refutes it as a wrong query, then the key records ambiguous_effect → validation by that finding', () => {
    spec
      .given([empty])
      .when(refuted)
      .then({
        keyId,
        failureClass: 'validation',
        reclassification: {
          from: 'ambiguous_effect',
          to: 'validation',
          by: 'verifier:empty_result:refuted:wrong_query',
          eventId: refuted.id,
          at: refuted.time,
        },
      });
  });

  it("the artifact carries it, contract-valid, next to the key's original error_class", () => {
    const state = governance.replay([empty, refuted]).states.get(keyId)!;
    const artifact = buildArtifact(state, governance.decide(state), DEFAULT_CONFIG);
    expect(DiagnosticArtifactSchema.parse(artifact)).toEqual(artifact);
    expect(artifact).toMatchObject({
      failure_class: 'validation',
      equivalence_key: { error_class: 'ambiguous_effect' },
      safety_justification: expect.stringContaining(
        'validation failure (reclassified from ambiguous_effect by verifier:empty_result:refuted:wrong_query) of sql_query',
      ),
      reclassification: {
        from: 'ambiguous_effect',
        to: 'validation',
        by: 'verifier:empty_result:refuted:wrong_query',
        event_id: refuted.id,
        at: refuted.time,
      },
    });
  });

  it('given the reclassified key, when the corrected query comes back empty again, then it is ambiguous_effect again, by that outcome', () => {
    spec
      .given([empty, refuted, agent.requested(corrected)])
      .when(agent.succeeded(corrected, { empty: true, rowCount: 0 }))
      .then({
        keyId,
        failureClass: 'ambiguous_effect',
        reclassification: expect.objectContaining({
          from: 'validation',
          to: 'ambiguous_effect',
          by: 'outcome:empty_result_unverified',
        }),
      });
  });

  it('a key never reclassified has no reclassification member: its artifact is the same bytes as before the field existed', () => {
    const state = governance.replay([empty]).states.get(keyId)!;
    expect('reclassification' in state).toBe(false);
    const artifact = buildArtifact(state, governance.decide(state), DEFAULT_CONFIG);
    expect(Object.keys(artifact)).not.toContain('reclassification');
    expect(canonicalJson(DiagnosticArtifactSchema.parse(artifact))).toBe(canonicalJson(artifact));
  });

  it("a new episode starts without the earlier episode's reclassification", () => {
    const rerun = agent.retry(corrected);
    const states = governance.replay([
      empty,
      refuted,
      agent.requested(corrected),
      agent.succeeded(corrected, { rowCount: 3 }),
      agent.requested(rerun),
      agent.succeeded(rerun, { empty: true, rowCount: 0 }),
    ]).states;
    const state = states.get(keyId)!;
    expect(state.episode).toBe(2);
    expect(state.reclassification).toBeUndefined();
  });
});
