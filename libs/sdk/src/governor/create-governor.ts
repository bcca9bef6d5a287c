import type { Kafka } from 'kafkajs';
import { resolveOptions, type GovernorOptions, type ResolvedOptions } from '../options/governor-options.js';
import { ApiClient } from '../transport/api-client.js';
import type { InterventionWatch } from '../transport/intervention-watch.js';
import { KafkaEventSink } from '../transport/kafka-event-sink.js';
import { KafkaInterventionWatch } from '../transport/kafka-intervention-watch.js';
import { PreflightClient } from '../transport/preflight-client.js';
import { Governor } from './governor.js';
import { httpGovernor } from './http-governor.js';

/**
 * Validates the options, connects the transport and, when interventions are awaited, joins the
 * interventions topic before returning, so no intervention for this run's calls can be missed.
 * Throws GovernorConfigError for bad options and the transport's error when Kafka cannot be reached.
 */
export async function createGovernor(input: GovernorOptions): Promise<Governor> {
  const options = resolveOptions(input);
  if (options.kafka === null) return httpGovernor({ ...options, api: options.api! });
  const preflight = options.api === null ? null : new PreflightClient(new ApiClient(options.api));

  // A configured client passed in was checked for producer() and consumer() by resolveOptions.
  const kafka = (options.kafka.kafka as Kafka | undefined) ?? (await kafkaClient(options));
  const sink = await withDeadline(
    KafkaEventSink.connect(kafka, options.kafka.topic, options.contentMode),
    options,
    'connecting the producer',
  );
  let watch: InterventionWatch | null = null;
  try {
    if (options.wait !== null) {
      watch = await KafkaInterventionWatch.start(
        kafka,
        options.kafka.interventionsTopic,
        options.tenant,
        options.run,
        options.connectTimeoutMs,
      );
    }
  } catch (error) {
    await sink.close().catch(() => undefined);
    throw error;
  }
  return new Governor(options, sink, preflight, watch);
}

/** kafkajs is loaded only for the Kafka transport, so HTTP-only agents need not install it. */
async function kafkaClient(options: ResolvedOptions): Promise<Kafka> {
  const { Kafka: KafkaClass, logLevel } = await import('kafkajs');
  return new KafkaClass({
    clientId: options.kafka!.clientId,
    brokers: [...options.kafka!.brokers!],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3_000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3_000 },
  });
}

async function withDeadline<T>(promise: Promise<T>, options: ResolvedOptions, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`TokenCircuit: timed out after ${options.connectTimeoutMs} ms ${what}`)),
      options.connectTimeoutMs,
    );
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
