import { describe, expect, it } from 'vitest';
import { incidentActionOf } from './incident-action.js';
import { EPISODE, incidentDelivery } from '../spec-support/pagerduty-deliveries.js';
import { PagerDutyWebhookDeliverySchema } from './webhook-delivery.js';

describe('incidentActionOf: which PagerDuty events come back as an operator action', () => {
  it('incident.acknowledged acknowledges the episode named by the incident key, by the person who did it', () => {
    expect(incidentActionOf(incidentDelivery('incident.acknowledged'))).toEqual({
      kind: 'act',
      action: 'acknowledge',
      deliveryId: '01DEN1HFIYRHSVK6QWNKXBJX2N',
      episodeId: EPISODE,
      incidentId: 'PGR0VU2',
      by: 'pagerduty:Alice Oncall',
      reason: 'PagerDuty incident #42 acknowledged by Alice Oncall https://acme.pagerduty.com/incidents/PGR0VU2',
    });
  });

  it('incident.resolved resolves it; without a person (automation) PagerDuty itself is named', () => {
    const action = incidentActionOf(incidentDelivery('incident.resolved', {}, { agent: null }));
    expect(action).toMatchObject({ kind: 'act', action: 'resolve', by: 'pagerduty:PagerDuty' });
  });

  it('cuts a long responder name at 256 units without splitting an emoji (a lone half was a 400)', () => {
    // 'pagerduty:' is 10 units: the emoji's two halves would sit at units 256 and 257.
    const summary = `${'x'.repeat(245)}\u{1F600}tail`;
    const action = incidentActionOf(
      incidentDelivery('incident.acknowledged', {}, { agent: { id: 'PXYZ', type: 'user_reference', summary } }),
    );
    expect(action).toMatchObject({ kind: 'act', by: `pagerduty:${'x'.repeat(245)}` });
  });

  it('the documented delivery shape parses, unknown members included', () => {
    expect(PagerDutyWebhookDeliverySchema.safeParse(incidentDelivery('incident.resolved')).success).toBe(true);
    expect(PagerDutyWebhookDeliverySchema.safeParse({ event: { id: 'x' } }).success).toBe(false);
  });

  it('ignores every other event type and resource, with the reason', () => {
    for (const type of ['incident.triggered', 'incident.unacknowledged', 'incident.annotated', 'incident.reopened'])
      expect(incidentActionOf(incidentDelivery(type))).toEqual({
        kind: 'ignored',
        reason: `${type} on incident is not acted on`,
      });
    const ping = incidentDelivery(
      'pagey.ping',
      {},
      { resource_type: 'pagey', data: { message: 'Hello from your friend Pagey!' } },
    );
    expect(incidentActionOf(ping)).toEqual({ kind: 'ignored', reason: 'pagey.ping on pagey is not acted on' });
  });

  it('ignores incidents TokenCircuit did not open: no incident key, or one that is not an episode id', () => {
    expect(incidentActionOf(incidentDelivery('incident.resolved', { incident_key: null }))).toMatchObject({
      kind: 'ignored',
      reason: expect.stringMatching(/has no incident key/),
    });
    expect(incidentActionOf(incidentDelivery('incident.resolved', { incident_key: 'srv01/HTTP' }))).toMatchObject({
      kind: 'ignored',
      reason: expect.stringMatching(/not a TokenCircuit episode id/),
    });
    expect(incidentActionOf(incidentDelivery('incident.resolved', { id: 7 }))).toEqual({
      kind: 'ignored',
      reason: 'the event data is not an incident',
    });
  });

  it('reads the episode id case-insensitively (the key travels through PagerDuty as given)', () => {
    const upper = incidentDelivery('incident.acknowledged', { incident_key: EPISODE.toUpperCase() });
    expect(incidentActionOf(upper)).toMatchObject({ episodeId: EPISODE });
  });
});
