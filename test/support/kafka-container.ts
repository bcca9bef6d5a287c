import { awaitKafka } from './kafka-probe.js';

/** The official image, same version as the local launcher and docker-compose.yml. */
export const KAFKA_IMAGE = 'apache/kafka:3.9.1';

const STARTER = '/tmp/testcontainers_start.sh';
const WAITING = 'Waiting for the Kafka start script';

// Same single-node KRaft settings as scripts/kafka/server.properties.in, in the image's KAFKA_* form.
const ENVIRONMENT = {
  CLUSTER_ID: 'dG9rZW5jaXJjdWl0LWRldg', // 16 bytes, URL-safe base64, as Kafka requires
  KAFKA_NODE_ID: '1',
  KAFKA_PROCESS_ROLES: 'broker,controller',
  KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,BROKER://0.0.0.0:9094,CONTROLLER://0.0.0.0:9093',
  KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
  KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
  KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
  KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
  KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
  KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '10',
  KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
  KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
  KAFKA_MIN_INSYNC_REPLICAS: '1',
  KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
  KAFKA_NUM_PARTITIONS: '1',
  KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'true',
};

/**
 * Starts apache/kafka in a container. @testcontainers/kafka's KafkaContainer drives Confluent images
 * only (it runs /etc/confluent/docker/run), so this follows testcontainers-java's KafkaContainer for
 * apache/kafka instead: the container waits for a start script, which is written once the mapped host
 * port is known, because the advertised listener must name that port.
 */
export async function startKafkaContainer(): Promise<{ brokers: string; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withEnvironment(ENVIRONMENT)
    .withExposedPorts(9092)
    .withCommand(['sh', '-c', `echo '${WAITING}'; while [ ! -f ${STARTER} ]; do sleep 0.1; done; exec sh ${STARTER}`])
    .withWaitStrategy(Wait.forLogMessage(WAITING))
    .withStartupTimeout(180_000)
    .start();
  const brokers = `${container.getHost()}:${container.getMappedPort(9092)}`;
  await container.copyContentToContainer([
    {
      content: `export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${brokers},BROKER://localhost:9094\nexec /etc/kafka/docker/run\n`,
      target: STARTER,
      mode: 0o755,
    },
  ]);
  await awaitKafka(brokers, `container ${KAFKA_IMAGE}`, 120_000);
  return {
    brokers,
    stop: async () => {
      await container.stop();
    },
  };
}
