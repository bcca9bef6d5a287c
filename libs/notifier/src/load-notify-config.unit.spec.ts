import { describe, expect, it } from 'vitest';
import { loadNotifyConfig, NotifyConfigError, redact } from './load-notify-config.js';

const problemsOf = (json: unknown, env: Record<string, string> = {}): readonly string[] => {
  try {
    loadNotifyConfig(json, env);
  } catch (error) {
    if (error instanceof NotifyConfigError) return error.problems;
    throw error;
  }
  return [];
};

const README_CONFIG = {
  sinks: {
    pd: { type: 'pagerduty', routingKey: { env: 'PD_ROUTING_KEY' } },
    slack: { type: 'slack', webhookUrl: { env: 'SLACK_WEBHOOK_URL' } },
  },
  routes: [
    { match: { level: ['page'] }, sinks: ['pd'] },
    { match: { level: ['block'] }, sinks: ['slack'] },
  ],
};

describe('the routing file', () => {
  it('reads secrets named by environment variable, and defaults what is left out', () => {
    const config = loadNotifyConfig(README_CONFIG, {
      PD_ROUTING_KEY: 'R0UT1NGKEY',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
    });
    expect(config.sinks.get('pd')).toEqual({
      name: 'pd',
      type: 'pagerduty',
      routingKey: 'R0UT1NGKEY',
      url: 'https://events.pagerduty.com/v2/enqueue',
      severity: { advise: 'info', block: 'error', page: 'critical' },
    });
    expect(config.sinks.get('slack')).toMatchObject({ webhookUrl: 'https://hooks.slack.com/services/T/B/X' });
    expect(config.dashboardUrl).toBeNull();
  });

  it('names every missing variable, unknown sink, wrong type and bad secret at once, never a secret value', () => {
    expect(problemsOf(README_CONFIG)).toEqual([
      'sinks.pd.routingKey: environment variable PD_ROUTING_KEY is not set',
      'sinks.slack.webhookUrl: environment variable SLACK_WEBHOOK_URL is not set',
    ]);
    const bad = {
      sinks: { a: { type: 'email', to: 'x' }, b: { type: 'slack', webhookUrl: 'https://h/x', extra: 1 } },
      routes: [{ match: { level: ['loud'] }, sinks: ['nope'] }],
    };
    const problems = problemsOf(bad);
    expect(problems.some((p) => p.startsWith('sinks.a.type:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('sinks.b:') && /extra/.test(p))).toBe(true);
    expect(problems.some((p) => p.startsWith('routes.0.match.level.0:'))).toBe(true);
    expect(problemsOf({ sinks: {}, routes: [{ sinks: ['nope'] }] })).toEqual([
      'routes.0.sinks.0: no sink named "nope" (sinks: none)',
    ]);
    const secretProblems = problemsOf(
      {
        sinks: { w: { type: 'webhook', url: 'https://r.example/h', secret: { env: 'S' } } },
        routes: [{ sinks: ['w'] }],
      },
      { S: 'not-a-whsec-secret-value' },
    );
    expect(secretProblems).toEqual(['sinks.w.secret: must be whsec_ followed by base64 (Standard Webhooks)']);
    expect(secretProblems.join()).not.toContain('not-a-whsec-secret-value');
  });

  it('refuses a file that is not an object with routes', () => {
    expect(problemsOf([])).toEqual([expect.stringMatching(/^\(file\): /)]);
    expect(problemsOf({ sinks: {} })).toEqual([expect.stringMatching(/^routes: /)]);
  });
});

describe('redact', () => {
  it('removes a secret and its URL-encoded form', () => {
    expect(
      redact('POST https://hooks.slack.com/services/T/B/X failed', ['https://hooks.slack.com/services/T/B/X']),
    ).toBe('POST *** failed');
    expect(redact('key=a%2Fb%3D', ['a/b='])).toBe('key=***');
  });
});
