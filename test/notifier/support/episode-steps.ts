import { randomUUID } from 'node:crypto';
import type { EpisodeEventData } from '@tokencircuit/contracts';
import { episodeRecord } from '@tokencircuit/contracts';
import { sendMessages } from '@tokencircuit/testing';
import { acknowledged, escalated, resolved, triggered } from '../../../libs/notifier/src/spec-support/sample-steps.js';

/** A fresh episode's four steps (new ids, so tests never share an incident), at the given first level. */
export function freshEpisode(level: EpisodeEventData['level'] = 'page', tenant = 'acme') {
  const episodeId = randomUUID();
  const keyId = `k-${randomUUID().slice(0, 8)}`;
  const common = { episodeId, keyId, tenant };
  return {
    triggered: { ...triggered, ...common, eventId: randomUUID(), level },
    escalated: { ...escalated, ...common, eventId: randomUUID() },
    acknowledged: { ...acknowledged, ...common, eventId: randomUUID(), level },
    resolved: { ...resolved, ...common, eventId: randomUUID(), level },
  };
}

/** Publishes steps to the episodes topic as the decision service does (structured CloudEvents, keyed by scope). */
export async function publishSteps(topic: string, steps: readonly EpisodeEventData[]): Promise<void> {
  await sendMessages(
    topic,
    steps.map((step) => {
      const record = episodeRecord(step);
      return {
        key: record.key,
        value: record.value as Buffer,
        headers: record.headers as Record<string, Buffer | string>,
      };
    }),
  );
}
