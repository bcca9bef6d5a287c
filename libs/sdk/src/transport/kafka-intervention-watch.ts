import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { cloudEventToIntervention, fromKafkaRecord } from '@tokencircuit/contracts';
import type { InterventionWatch } from './intervention-watch.js';
import { InterventionInbox } from './intervention-inbox.js';

/**
 * Reads the interventions topic with a consumer group of its own, from the end of every partition as
 * it was when the governor started (nothing older is replayed), and keeps the interventions of this
 * tenant and run. The group is deleted again on close.
 */
export class KafkaInterventionWatch implements InterventionWatch {
  private readonly inbox = new InterventionInbox();
  /** Records on the topic that were not valid interventions (not ours to repair; counted, not thrown). */
  skipped = 0;

  private constructor(
    private readonly kafka: Kafka,
    private readonly consumer: Consumer,
    private readonly groupId: string,
    private readonly tenant: string,
    private readonly run: string,
  ) {}

  static async start(
    kafka: Kafka,
    topic: string,
    tenant: string,
    run: string,
    timeoutMs: number,
  ): Promise<KafkaInterventionWatch> {
    const admin = kafka.admin();
    await admin.connect();
    let ends: Array<{ partition: number; offset: string }>;
    try {
      ends = await admin.fetchTopicOffsets(topic);
    } finally {
      await admin.disconnect();
    }
    const groupId = `tokencircuit-sdk.${tenant}.${run}.${randomUUID()}`.slice(0, 249);
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, allowAutoTopicCreation: false });
    const watch = new KafkaInterventionWatch(kafka, consumer, groupId, tenant, run);
    let removeListener = (): void => {};
    const joined = new Promise<void>((resolve) => {
      removeListener = consumer.on(consumer.events.GROUP_JOIN, () => resolve());
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: false });
      await consumer.run({ eachMessage: async ({ message }) => watch.receive(message) });
      for (const end of ends) consumer.seek({ topic, partition: end.partition, offset: end.offset });
      await withTimeout(joined, timeoutMs, `joining consumer group ${groupId} on ${topic}`);
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    } finally {
      removeListener();
    }
    return watch;
  }

  waitFor(eventId: string, budgetMs: number) {
    return this.inbox.waitFor(eventId, budgetMs);
  }

  private receive(message: KafkaMessage): void {
    try {
      const headers: Record<string, Buffer | string | undefined> = {};
      for (const [name, value] of Object.entries(message.headers ?? {}))
        headers[name] = Array.isArray(value) ? value[value.length - 1] : value;
      const cloudEvent = fromKafkaRecord({ key: message.key, value: message.value, headers });
      if (cloudEvent['tenantid'] !== this.tenant || cloudEvent['runid'] !== this.run) return;
      this.inbox.deliver(cloudEventToIntervention(cloudEvent));
    } catch {
      this.skipped++;
    }
  }

  async close(): Promise<void> {
    this.inbox.drain();
    await this.consumer.disconnect();
    // A group per governor: leave no empty groups behind on the broker. Best effort by design.
    const admin = this.kafka.admin();
    await admin
      .connect()
      .then(() => admin.deleteGroups([this.groupId]))
      .catch(() => undefined)
      .finally(() => admin.disconnect().catch(() => undefined));
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
