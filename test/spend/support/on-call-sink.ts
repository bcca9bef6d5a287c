import type { INestApplicationContext } from '@nestjs/common';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { episodeIdOf } from '@tokencircuit/governance';
import { createTopic, randomTopic, waitFor } from '@tokencircuit/testing';
import { HttpReceiver } from '../../notifier/support/http-receiver.js';
import { notifierEnv, startNotifier, writeNotifyFile } from '../../notifier/support/notifier-harness.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A tenant's on-call sink: a webhook receiver, and the production notifier that pages it. */
export interface OnCallSink {
  /** What the receiver got, one entry a request. */
  readonly hook: HttpReceiver;
  /** Waits for the first page and gives its payload once its webhook signature checks out. */
  firstPage(): Promise<unknown>;
  /** How many deliveries of the step `episodeId` the notifier recorded as sent. */
  sentDeliveries(pool: pg.Pool, episodeId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Starts a webhook receiver and the production notifier (Kafka and Postgres ports, reading `episodesTopic` from
 * the earliest offset) with one route: steps of `level: page` go to the receiver, signed. `extra` adds to the
 * notifier's environment.
 */
export async function startOnCallSink(
  databaseUrl: string,
  episodesTopic: string,
  extra: Record<string, string> = {},
): Promise<OnCallSink> {
  const dlqTopic = await createTopic(randomTopic('on-call-notifier-dlq'), 1);
  const hook = await new HttpReceiver(() => ({ status: 200 })).start();
  let notifier: INestApplicationContext;
  try {
    notifier = await startNotifier(
      notifierEnv({
        databaseUrl,
        episodesTopic,
        dlqTopic,
        notifyFile: writeNotifyFile({
          sinks: { oncall: { type: 'webhook', url: `${hook.url}/oncall`, secret: { env: 'HOOK_SECRET' } } },
          routes: [{ match: { level: ['page'] }, sinks: ['oncall'] }],
        }),
        extra: { HOOK_SECRET: SECRET, NOTIFIER_START_FROM: 'earliest', ...extra },
      }),
    );
  } catch (error) {
    await hook.stop();
    throw error;
  }
  return {
    hook,
    async firstPage() {
      await waitFor(() => hook.requests.length >= 1, { maxWait: 60_000, interval: 50, name: 'the budget page' });
      const first = hook.requests[0]!;
      return new Webhook(SECRET).verify(first.body, first.headers as Record<string, string>);
    },
    async sentDeliveries(pool, episodeId) {
      const { rows } = await pool.query(`SELECT 1 FROM notifier_deliveries WHERE episode_id = $1 AND status = 'sent'`, [
        episodeId,
      ]);
      return rows.length;
    },
    async close() {
      await notifier.close();
      await hook.stop();
    },
  };
}

/** What the page of acme's run-tokens budget in `run` carries whichever door crossed it: its key and first episode. */
export function runTokensPage(run: string) {
  const keyId = `budget|acme|run-tokens|${run}|run`;
  return { tenant: 'acme', keyId, episodeId: episodeIdOf(keyId, 1), failureClass: 'budget', level: 'page', run };
}
