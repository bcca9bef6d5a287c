import { describe, expect, it } from 'vitest';
import { loadNotifyConfig } from './load-notify-config.js';
import { routeEpisode } from './route-episode.js';
import { acknowledged, escalated, resolved, triggered } from './spec-support/sample-steps.js';

const config = loadNotifyConfig(
  {
    sinks: {
      pd: { type: 'pagerduty', routingKey: 'k' },
      slack: { type: 'slack', webhookUrl: 'https://hooks.example/s' },
      audit: { type: 'webhook', url: 'https://audit.example/h', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    },
    routes: [
      { match: { level: ['page'] }, sinks: ['pd'] },
      { match: { level: ['block'], tenant: ['acme'], class: ['permission'] }, sinks: ['slack'] },
      { match: { tool: ['sql.execute'], principal: ['svc-billing'] }, sinks: ['audit', 'slack'] },
      { match: { principal: ['someone-else'] }, sinks: ['pd'] },
    ],
  },
  {},
);

describe('routing an episode step', () => {
  it('sends a step to every sink of every matching route, each once, in config order', () => {
    expect(routeEpisode(config, triggered)).toEqual(['slack', 'audit']);
    expect(routeEpisode(config, escalated)).toEqual(['pd', 'audit', 'slack']);
  });

  it('does not match a route on a field the step lacks', () => {
    expect(routeEpisode(config, { ...triggered, principal: null, tool: 'http.get', tenant: 'other' })).toEqual([]);
  });

  it('acknowledges and resolves wherever the episode already went, even when no route matches', () => {
    const quiet = { ...resolved, level: 'advise' as const, tool: 'http.get' };
    expect(routeEpisode(config, quiet)).toEqual([]);
    expect(routeEpisode(config, quiet, ['slack', 'gone'])).toEqual(['slack']);
    expect(routeEpisode(config, acknowledged, ['slack'])).toEqual(['pd', 'audit', 'slack']);
    expect(routeEpisode(config, triggered, ['pd'])).toEqual(['slack', 'audit']);
  });
});
