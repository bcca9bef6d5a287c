import { probeDockerEngine, type DockerEngine } from './docker-engine.js';
import { KAFKA_IMAGE, startKafkaContainer } from './kafka-container.js';
import { awaitKafka } from './kafka-probe.js';
import { acquireLocalKafka, javaAvailable, LAUNCHER } from './local-kafka-launcher.js';

export interface ResolvedKafka {
  readonly brokers: string;
  readonly source: string;
  readonly teardown?: () => Promise<void>;
}

export interface KafkaResolutionOptions {
  readonly docker?: () => Promise<DockerEngine>;
  /** How long a broker named by KAFKA_BROKERS gets to answer. */
  readonly explicitWaitMs?: number;
}

/**
 * KAFKA_BROKERS → the local launcher (when Java is present) → an apache/kafka container (when a
 * Docker engine answers) → an error naming all three. A launcher failure is reported, not hidden:
 * it is part of the final error, and printed when a container takes over.
 */
export async function resolveKafka(
  leaseId: string,
  { docker = probeDockerEngine, explicitWaitMs = 30_000 }: KafkaResolutionOptions = {},
): Promise<ResolvedKafka> {
  const explicit = process.env.KAFKA_BROKERS?.trim();
  if (explicit) {
    await awaitKafka(explicit, 'KAFKA_BROKERS', explicitWaitMs);
    return { brokers: explicit, source: 'KAFKA_BROKERS' };
  }

  let launcherProblem = 'no java on PATH and JAVA_HOME unset';
  if (javaAvailable()) {
    try {
      const local = await acquireLocalKafka(leaseId);
      return { brokers: local.brokers, source: `local launcher (${LAUNCHER})`, teardown: local.release };
    } catch (error) {
      launcherProblem = error instanceof Error ? error.message : String(error);
    }
  }

  const engine = await docker();
  if (engine.answers) {
    if (javaAvailable())
      console.warn(`[int global setup] local launcher failed, using a container: ${launcherProblem}`);
    const container = await startKafkaContainer();
    return { brokers: container.brokers, source: `container ${KAFKA_IMAGE}`, teardown: container.stop };
  }
  throw new Error(
    [
      'No Kafka for the integration tests. Provide one of:',
      '  1. KAFKA_BROKERS=host:port[,host:port] of a running broker;',
      `  2. Java 17 + Maven, for the local launcher scripts/kafka/kafka.sh (tried: ${launcherProblem});`,
      `  3. a Docker engine, for an ${KAFKA_IMAGE} container (tried: ${engine.reason}).`,
    ].join('\n'),
  );
}
