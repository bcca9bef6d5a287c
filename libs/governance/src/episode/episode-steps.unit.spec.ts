import { EpisodeEventDataSchema } from '@tokencircuit/contracts';
import { describe, expect, it } from 'vitest';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';
import { EpisodeLifecycle, episodeSpec } from '../testing/episode-spec.js';
import { episodeIdOf } from './episode-id.js';
import { foldEpisode } from './episode-record.js';
import { episodeSteps } from './episode-steps.js';
import { interventionFor } from '../artifact/intervention.js';
import { DEFAULT_CONFIG } from '../config/load-config.js';
import { outboxEntryOf } from '../state/outbox-entry.js';
import { createGovernance } from '../governance.js';

const governance = createGovernance(DEFAULT_CONFIG);

describe('episode lifecycle: triggered, escalated, acknowledged, resolved', () => {
  const timeline = new Timeline();
  const spec = episodeSpec();
  const oncall = new SpecOperator(timeline, 'acme', 'alice@acme');

  // A write that timed out after dispatch: unknown is not failed (block), an inconclusive verifier pages.
  const billing = new SpecAgent(timeline, 'acme', 'billing', 'run-5', {
    resourceClass: 'api_endpoint',
    effect: 'write',
    httpMethod: 'POST',
  });
  const create = billing.call('create_invoice', { arguments: { amount: 10 } });
  const timedOut = billing.unknown(create, { message: 'timeout after send' }, { requestSent: true });
  const inconclusive = billing.verified(create, 'read_after_write', 'inconclusive');
  const applied = billing.verified(create, 'read_after_write', 'confirmed');
  const writeKey = 'run|acme|run=run-5|create_invoice|api_endpoint|~|ambiguous_effect|seb=1';

  it('the first intervention of an episode triggers it, with a stable episode id', () => {
    const [triggered] = spec
      .given([])
      .when(timedOut)
      .then([{ transition: 'triggered', level: 'block', keyId: writeKey, episode: 1, previousLevel: null }]);
    expect(triggered!.episodeId).toBe(episodeIdOf(writeKey, 1));
    expect(triggered!.interventionId).not.toBeNull();
    expect(triggered!.artifact?.key_id).toBe(writeKey);
    expect(EpisodeEventDataSchema.parse(triggered)).toEqual(triggered);
  });

  it('a louder intervention of the same episode escalates it; a repeat at the same level says nothing', () => {
    spec
      .given([timedOut])
      .when(inconclusive)
      .then([{ transition: 'escalated', level: 'page', previousLevel: 'block', episode: 1 }]);
    spec
      .given([timedOut, inconclusive])
      .when(billing.verified(create, 'read_after_write', 'inconclusive'))
      .then([]);
  });

  it('an operator acknowledgement is a step of its own, once per episode, and issues no intervention', () => {
    const ack = oncall.resolves(writeKey, 'acknowledged', 'checking the provider by hand');
    const [acked] = spec
      .given([timedOut, inconclusive])
      .when(ack)
      .then([
        {
          transition: 'acknowledged',
          level: 'page',
          actor: { kind: 'operator', by: 'alice@acme', reason: 'checking the provider by hand' },
        },
      ]);
    expect(acked!.interventionId).toBeNull();
    spec
      .given([timedOut, inconclusive, ack])
      .when(oncall.resolves(writeKey, 'acknowledged', 'again'))
      .then([]);
  });

  it('a passing verifier resolves the episode, naming the verifier', () => {
    spec
      .given([timedOut, inconclusive])
      .when(applied)
      .then([
        {
          transition: 'resolved',
          level: 'page',
          actor: { kind: 'verifier', by: 'read_after_write', reason: 'effect_applied' },
        },
      ]);
  });

  it('an operator resolution resolves it, naming the operator', () => {
    spec
      .given([timedOut])
      .when(oncall.resolves(writeKey, 'effect_confirmed', 'reconciled by hand'))
      .then([
        {
          transition: 'resolved',
          level: 'block',
          actor: { kind: 'operator', by: 'alice@acme', reason: 'effect_confirmed: reconciled by hand' },
        },
      ]);
  });

  it('every resolution of an uncertain write ends the episode, an acknowledged one too', () => {
    for (const kind of ['resource_confirmed', 'effect_confirmed', 'effect_absent'] as const) {
      spec
        .given([timedOut, inconclusive, oncall.resolves(writeKey, 'acknowledged', 'looking')])
        .when(oncall.resolves(writeKey, kind, 'ledger checked'))
        .then([
          {
            transition: 'resolved',
            level: 'page',
            actor: { kind: 'operator', by: 'alice@acme', reason: `${kind}: ledger checked` },
          },
        ]);
    }
  });

  it('a reset while the write effect is unknown means nothing (it would re-allow the write blind): no step', () => {
    spec
      .given([timedOut])
      .when(oncall.resolves(writeKey, 'reset', 'try again'))
      .then([]);
  });

  describe('a success clears a transient key; the next failure is a new episode and a new incident', () => {
    const researcher = new SpecAgent(timeline, 'acme', 'researcher', 'run-3', {
      resourceClass: 'api_endpoint',
      effect: 'read',
      httpMethod: 'GET',
    });
    const search = researcher.call('web_search', { arguments: { q: 'x' } });
    const failed = researcher.failed(
      search,
      { httpStatus: 503, message: 'unavailable' },
      { requestSent: true, responseReceived: true },
    );
    const retry = researcher.retry(search);
    const succeeded = researcher.succeeded(retry);
    const later = researcher.call('web_search', { arguments: { q: 'y' } });
    const failedAgain = researcher.failed(
      later,
      { httpStatus: 503, message: 'unavailable' },
      { requestSent: true, responseReceived: true },
    );
    const key = 'run|acme|run=run-3|web_search|api_endpoint|~|transient|seb=0';

    it('the success resolves episode 1', () => {
      spec
        .given([failed, researcher.requested(retry)])
        .when(succeeded)
        .then([
          {
            transition: 'resolved',
            episode: 1,
            level: 'advise',
            actor: { kind: 'success', by: 'researcher', reason: null },
          },
        ]);
    });

    it('the next failure triggers episode 2 under another episode id', () => {
      const [next] = spec
        .given([failed, researcher.requested(retry), succeeded])
        .when(failedAgain)
        .then([{ transition: 'triggered', episode: 2 }]);
      expect(next!.episodeId).toBe(episodeIdOf(key, 2));
      expect(next!.episodeId).not.toBe(episodeIdOf(key, 1));
    });
  });

  it('replaying the same events yields the same steps with the same ids (subscribers dedupe on them)', () => {
    const events = [timedOut, inconclusive, oncall.resolves(writeKey, 'acknowledged', 'on it'), applied];
    const run = () => {
      const lifecycle = new EpisodeLifecycle();
      return events.flatMap((e) => lifecycle.apply(e));
    };
    const first = run();
    expect(first.map((s) => s.transition)).toEqual(['triggered', 'escalated', 'acknowledged', 'resolved']);
    expect(run()).toEqual(first);
    expect(new Set(first.map((s) => s.eventId)).size).toBe(4);
    expect(new Set(first.map((s) => s.episodeId)).size).toBe(1);
  });

  it('the record folds the recorded steps; an older snapshot arriving late makes no step', () => {
    const lifecycle = new EpisodeLifecycle();
    const steps = [timedOut, inconclusive].flatMap((e) => lifecycle.apply(e));
    const record = foldEpisode(steps);
    expect(record).toMatchObject({ episode: 1, level: 'page', acknowledged: false, resolved: false });
    const states = governance.replay([timedOut]).states;
    const late = outboxEntryOf(states.get(writeKey)!);
    expect(
      episodeSteps(record, late, interventionFor(late, DEFAULT_CONFIG, late.snapshot.updatedAt), DEFAULT_CONFIG),
    ).toEqual([]);
  });
});
