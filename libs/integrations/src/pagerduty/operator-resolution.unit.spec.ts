import { describe, expect, it } from 'vitest';
import { incidentActionOf, type IncidentAction } from './incident-action.js';
import { resolutionFor, type EpisodeRecord } from './operator-resolution.js';
import { EPISODE, incidentDelivery } from '../spec-support/pagerduty-deliveries.js';

const KEY = 'fleet|acme|p=svc-reporting|r=finance.salaries|sql_query|sql_namespace|read:finance|permission|seb=0';
const act = (type: string) => incidentActionOf(incidentDelivery(type)) as Extract<IncidentAction, { kind: 'act' }>;
const open: EpisodeRecord = {
  keyId: KEY,
  episode: 1,
  transitions: ['triggered'],
  current: { episode: 1, status: 'blocked' },
};

describe('resolutionFor: an incident answer becomes one operator resolution of the episode’s key, or nothing', () => {
  it('acknowledged → an "acknowledged" resolution of the key, by the PagerDuty user, with the incident in the reason', () => {
    const decision = resolutionFor('acme', act('incident.acknowledged'), open);
    expect(decision).toEqual({
      kind: 'resolve',
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      data: {
        keyId: KEY,
        resolution: 'acknowledged',
        by: 'pagerduty:Alice Oncall',
        reason: expect.stringContaining('PagerDuty incident #42 acknowledged'),
        unsafeOverride: false,
      },
    });
  });

  it('resolved → a "reset" of the key (agents may try again), also after an acknowledgement', () => {
    const decision = resolutionFor('acme', act('incident.resolved'), {
      ...open,
      transitions: ['triggered', 'acknowledged'],
    });
    expect(decision).toMatchObject({ kind: 'resolve', data: { resolution: 'reset' } });
  });

  it('delivered twice: the same id, so the projector counts the resolution once; another tenant gets another id', () => {
    const first = resolutionFor('acme', act('incident.resolved'), open);
    const again = resolutionFor('acme', act('incident.resolved'), open);
    expect(again).toEqual(first);
    expect(resolutionFor('globex', act('incident.resolved'), open)).not.toEqual(first);
  });

  it('does nothing for an episode of no tenant key, an episode that is over, or an answer already recorded', () => {
    const cases: Array<[EpisodeRecord | null, string, RegExp]> = [
      [null, 'incident.resolved', new RegExp(`no episode ${EPISODE} of this tenant`)],
      [{ ...open, transitions: ['triggered', 'resolved'] }, 'incident.resolved', /already resolved/],
      [{ ...open, transitions: ['triggered', 'resolved'] }, 'incident.acknowledged', /already resolved/],
      [{ ...open, current: { episode: 2, status: 'blocked' } }, 'incident.resolved', /newer episode/],
      [{ ...open, current: null }, 'incident.resolved', /newer episode/],
      [{ ...open, current: { episode: 1, status: 'resolved' } }, 'incident.resolved', /already resolved/],
      [{ ...open, transitions: ['triggered', 'acknowledged'] }, 'incident.acknowledged', /already acknowledged/],
    ];
    for (const [episode, type, reason] of cases)
      expect(resolutionFor('acme', act(type), episode)).toEqual({
        kind: 'ignored',
        reason: expect.stringMatching(reason),
      });
  });
});
