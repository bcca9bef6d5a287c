import type { Admin } from 'kafkajs';
import { START_EXIT, StartupError, type KafkaConnection } from '@tokencircuit/config';
import { createKafka } from '../kafka-client.js';

/**
 * An admin client that has reached the cluster, or a StartupError within `timeoutMs`: kafkajs alone
 * retries a wrong or silent broker for about half a minute and then fails without a word.
 */
export async function connectAdmin(connection: KafkaConnection, timeoutMs: number): Promise<Admin> {
  // Few, short retries: a refused connection should be told as such within the timeout, and no retry
  // timer may keep a failed CLI run alive after it has said so.
  const retryMs = Math.max(100, Math.floor(timeoutMs / 4));
  const admin = createKafka(connection, 'admin', {
    retry: { retries: 2, initialRetryTime: retryMs, maxRetryTime: retryMs },
  }).admin();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs} ms (KAFKA_CONNECT_TIMEOUT_MS)`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([admin.connect().then(() => admin.describeCluster()), timedOut]);
    return admin;
  } catch (error) {
    await admin.disconnect().catch(() => undefined);
    throw new StartupError(
      START_EXIT.kafka,
      `Kafka at ${connection.brokers.join(',')} is unreachable: ${reasonOf(error)}; check KAFKA_BROKERS` +
        (connection.ssl || connection.sasl ? ', KAFKA_SSL and KAFKA_SASL_*' : '') +
        ' and that the broker is running',
    );
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(error: unknown): string {
  let e = error as { message?: string; cause?: unknown; originalError?: unknown } | undefined;
  // kafkajs wraps the socket error (ECONNREFUSED, ENOTFOUND) in retry errors: name the innermost.
  while (e && (e.originalError || e.cause)) e = (e.originalError ?? e.cause) as typeof e;
  return e?.message ?? String(error);
}
