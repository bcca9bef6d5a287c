import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryId } from '@tokencircuit/notifier';
import { createTestDatabase, createTopic, randomTopic, waitFor, type TestDatabase } from '@tokencircuit/testing';
import { freshEpisode, publishSteps } from './support/episode-steps.js';
import { HttpReceiver } from './support/http-receiver.js';
import { notifierEnv, writeNotifyFile } from './support/notifier-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const WAIT = { maxWait: 120_000, interval: 100 };

/** apps/notifier as a process, the way it runs in production; resolves once it says it started. */
async function spawnNotifier(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/notifier/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('apps/notifier as a process', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('tc_notifier_crash');
  });
  afterAll(async () => {
    await db.drop();
  });

  it('killed (SIGKILL) mid-delivery, then restarted: every delivery arrives, none is accepted twice', async () => {
    // Until the kill the receivers take requests and never answer: the notifier dies with sends in flight.
    let answering = false;
    const reply = (status: number) => () => (answering ? { status } : ('hold' as const));
    const hook = await new HttpReceiver(reply(200)).start();
    const pd = await new HttpReceiver(reply(202)).start();
    const episodesTopic = await createTopic(randomTopic('notifier-crash-episodes'), 3);
    const dlqTopic = await createTopic(randomTopic('notifier-crash-dlq'), 1);
    const env = notifierEnv({
      databaseUrl: db.url,
      episodesTopic,
      dlqTopic,
      notifyFile: writeNotifyFile({
        sinks: {
          audit: { type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
          oncall: { type: 'pagerduty', routingKey: { env: 'PD_KEY' }, url: pd.url },
        },
        routes: [{ sinks: ['audit', 'oncall'] }],
      }),
      extra: {
        HOOK_SECRET: SECRET,
        PD_KEY: 'crash-routing-key',
        NOTIFIER_HTTP_PORT: '0',
        NOTIFIER_HTTP_TIMEOUT_MS: '1500',
        NOTIFIER_LEASE_MS: '3000',
        NOTIFIER_MAX_ATTEMPTS: '8',
        LOG_LEVEL: 'info',
      },
    });
    const episodes = Array.from({ length: 10 }, () => freshEpisode('page'));
    const steps = episodes.flatMap((e) => [e.triggered, e.resolved]);
    const expected = new Set(steps.flatMap((s) => [deliveryId(s.eventId, 'audit'), deliveryId(s.eventId, 'oncall')]));

    const first = await spawnNotifier(env);
    try {
      await waitFor(() => first.output().includes('notifier started'), {
        ...WAIT,
        name: 'the first notifier to start',
      });
      await publishSteps(episodesTopic, steps);
      await waitFor(() => hook.requests.length > 0 && pd.requests.length > 0, { ...WAIT, name: 'sends in flight' });
    } finally {
      first.child.kill('SIGKILL');
    }
    await once(first.child, 'exit');
    answering = true;

    const second = await spawnNotifier(env);
    try {
      await waitFor(
        async () => {
          const { rows } = await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM notifier_deliveries WHERE status = 'sent'`,
          );
          return rows[0]!.n === expected.size;
        },
        { ...WAIT, name: `all ${expected.size} deliveries sent after the restart` },
      );
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }

    const { rows } = await db.pool.query<{ id: string; status: string }>('SELECT id, status FROM notifier_deliveries');
    // Nothing lost, nothing recorded twice: exactly one row per (step, sink), each sent.
    expect(new Set(rows.map((r) => r.id))).toEqual(expected);
    expect(rows).toHaveLength(expected.size);
    // Every delivery reached its receiver and was accepted (answered 2xx) exactly once. The sends the kill cut
    // off were never answered and came again with the same id (webhook-id, dedup_key): at least once, by design.
    expect(hook.heldCount + pd.heldCount).toBeGreaterThan(0);
    const answeredHooks = hook.requests.slice(hook.heldCount).map((r) => r.headers['webhook-id'] as string);
    expect(answeredHooks.sort()).toEqual(steps.map((s) => deliveryId(s.eventId, 'audit')).sort());
    const answeredPd = pd.json<{ event_action: string; dedup_key: string }>().slice(pd.heldCount);
    for (const e of episodes) {
      expect(answeredPd.filter((x) => x.dedup_key === e.triggered.episodeId).map((x) => x.event_action)).toEqual([
        'trigger',
        'resolve',
      ]);
    }
    expect(answeredPd).toHaveLength(2 * episodes.length);
    await hook.stop();
    await pd.stop();
  });

  it('refuses a bad routing file at start with exit code 2, naming the file and the fields, never a secret', async () => {
    const env = notifierEnv({
      databaseUrl: db.url,
      episodesTopic: 'unused',
      dlqTopic: 'unused',
      notifyFile: writeNotifyFile({
        sinks: {
          oncall: { type: 'pagerduty', routingKey: 'inline-secret-routing-key', url: 'not a url' },
          chat: { type: 'slack', webhookUrl: { env: 'MISSING_SLACK_URL' } },
        },
        routes: [{ match: { level: ['loud'] }, sinks: ['oncall'] }],
      }),
    });
    const { child, output } = await spawnNotifier(env);
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(output()).toContain(`TOKENCIRCUIT_NOTIFY_FILE: ${env.TOKENCIRCUIT_NOTIFY_FILE}: sinks.oncall.url:`);
    expect(output()).toContain('routes.0.match.level.0:');
    expect(output()).not.toContain('inline-secret-routing-key');
  });
});
