import { Kafka, logLevel } from 'kafkajs';
import { waitFor } from '@tokencircuit/testing';

/** Resolves once the brokers answer a metadata request; a named timeout says which source was wrong. */
export async function awaitKafka(brokers: string, source: string, maxWait = 30_000): Promise<void> {
  const kafka = new Kafka({
    clientId: 'tokencircuit-int-setup',
    brokers: brokers.split(',').map((broker) => broker.trim()),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 2_000,
    retry: { retries: 0 },
  });
  await waitFor(
    async () => {
      const admin = kafka.admin();
      try {
        await admin.connect();
        return (await admin.describeCluster()).brokers.length > 0;
      } finally {
        await admin.disconnect();
      }
    },
    { maxWait, interval: 250, name: `Kafka at ${brokers} (${source}) to answer a metadata request` },
  );
}
