import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { governanceSpec } from '../testing/spec.js';

/**
 * RFC test 4 — Ambiguous/Empty: distinguish "valid empty" from "query probably wrong" with an
 * explicit verifier. An empty read is not success until the empty_result verifier says it is, and
 * it is never silently retried.
 */
describe('RFC 4: ambiguous/empty — the empty_result verifier decides valid empty vs wrong query', () => {
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
  const corrected = agent.retry(query, { arguments: { sql: "SELECT * FROM crm.tickets WHERE status = 'open'" } });

  it('an empty result opens an ambiguous_effect key awaiting the empty_result verifier', () => {
    spec
      .given([])
      .when(empty)
      .then({
        keyId,
        failureClass: 'ambiguous_effect',
        status: 'awaiting_verification',
        verifierRequired: 'empty_result',
        verifierStatus: 'pending',
        decision: { level: 'advise', nextAction: 'verify_empty_result' },
      });
  });

  it('"valid empty": the verifier confirms it and the key resolves, nothing to tell anyone', () => {
    spec
      .given([empty])
      .when(agent.verified(query, 'empty_result', 'confirmed'))
      .then({
        keyId,
        status: 'resolved',
        finding: 'empty_valid',
        verifierStatus: 'passed',
        decision: { intervene: false },
      });
  });

  it('"query probably wrong": the verifier says empty is implausible, so correct the arguments', () => {
    spec
      .given([empty])
      .when(agent.verified(query, 'empty_result', 'refuted'))
      .then({
        keyId,
        status: 'open',
        finding: 'empty_invalid',
        decision: { level: 'advise', nextAction: 'correct_arguments' },
      });
    const wrong = agent.verified(query, 'empty_result', 'refuted');
    spec
      .given([empty, wrong])
      .whenPreflight('acme', agent.retry(query), timeline.now())
      .thenDenied({
        reason:
          /the empty-result verifier judged the query run \S+ sent to sql_query on .* wrong: change the query before running it again/,
        decision: { level: 'block', nextAction: 'correct_arguments' },
      });
    spec.given([empty, wrong]).whenPreflight('acme', corrected, timeline.now()).thenAllowed();
    spec
      .given([empty, wrong, agent.requested(corrected)])
      .when(agent.succeeded(corrected, { rowCount: 4, empty: false }))
      .then({ keyId, status: 'resolved' });
  });

  it('repeating the same query before the verifier answered is a silent retry: denied, and a violation if sent', () => {
    const same = agent.retry(query);
    spec
      .given([empty])
      .whenPreflight('acme', same, timeline.now())
      .thenDenied({
        reason:
          /^sql_query on .* returned an empty result to run \S+ at \S+Z that no verifier has judged: verify it before repeating the same read \[key /,
      });
    spec
      .given([empty])
      .when(agent.requested(same))
      .then({
        keyId,
        violations: 1,
        lastViolation: expect.objectContaining({ kind: 'unverified_empty_retry' }),
        decision: { level: 'block', nextAction: 'verify_empty_result' },
      });
  });

  it('a verifier that cannot tell keeps the key waiting and blocks', () => {
    spec
      .given([empty])
      .when(agent.verified(query, 'empty_result', 'inconclusive'))
      .then({
        keyId,
        status: 'awaiting_verification',
        verifierStatus: 'failed',
        decision: { level: 'block', nextAction: 'verify_empty_result' },
      });
  });

  it('a verifier about another call, or of another kind, changes nothing', () => {
    const unrelated = agent.call('sql_query');
    spec
      .given([empty])
      .when(agent.verified(unrelated, 'empty_result', 'confirmed'))
      .thenNothingChanged();
    spec
      .given([empty])
      .when(agent.verified(query, 'read_after_write', 'confirmed'))
      .thenNothingChanged();
  });

  it('a tool declared with emptyResultNeedsVerification=false has its empty results accepted as valid', () => {
    const lenient = governanceSpec(loadConfig({ tools: { sql_query: { emptyResultNeedsVerification: false } } }));
    lenient.given([]).when(empty).thenNothingChanged();
  });
});
