import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadKafkaConnection, StartupError } from '@tokencircuit/config';
import { Infrastructure } from '@tokencircuit/composition/infrastructure';
import { connectAdmin, loadTopicSettings } from '@tokencircuit/kafka';
import { AnchorError, parseSignedAnchor } from '@tokencircuit/storage';
import type { CliIo } from '../io/cli-io.js';
import { CliError, EXIT, usageError } from '../io/exit-codes.js';

/** The embedded mode's anchor file: one signed anchor per line, appended (apps/fleet embedded runtime). */
export const EMBEDDED_ANCHORS_FILE = 'audit-anchors.jsonl';

/**
 * The newest anchor of each tenant among `values` (later wins), still unverified: the caller checks the
 * signature. A value that is not an anchor is an error naming where it came from.
 */
export function latestByTenant(values: readonly unknown[], source: string): Map<string, unknown> {
  const latest = new Map<string, unknown>();
  values.forEach((value, i) => {
    try {
      latest.set(parseSignedAnchor(value).tenant, value);
    } catch (error) {
      if (error instanceof AnchorError) throw usageError(`${source}, anchor ${i + 1}: ${error.message}`);
      throw error;
    }
  });
  return latest;
}

/** Anchors kept in a file: one JSON anchor, or JSON lines (an export, or the embedded data folder's file). */
export function anchorsFromFile(path: string, io: CliIo): Map<string, unknown> {
  const file = resolve(io.cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`cannot read anchor file ${file}: ${(error as Error).message}`);
  }
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const values = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      if (lines.length > 1 || i > 0) throw usageError(`${file}, line ${i + 1}: not JSON`);
      return undefined;
    }
  });
  // A pretty-printed single anchor spans lines: read it whole.
  if (values.includes(undefined)) {
    try {
      return latestByTenant([JSON.parse(text) as unknown], file);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw usageError(`${file}: neither one JSON anchor nor JSON lines`);
    }
  }
  return latestByTenant(values, file);
}

/** Every record of the audit-anchors topic (KAFKA_BROKERS, AUDIT_ANCHORS_TOPIC), read to its end. */
export async function anchorsFromKafka(io: CliIo, timeoutMs = 30_000): Promise<Map<string, unknown>> {
  let connection, topic;
  try {
    connection = loadKafkaConnection({ ...io.env });
    topic = loadTopicSettings({ ...io.env }).topics.auditAnchors.name;
  } catch (error) {
    if (error instanceof ConfigError) throw usageError(error.problems.join('; '));
    throw error;
  }
  let admin;
  try {
    admin = await connectAdmin(connection, 10_000);
  } catch (error) {
    if (error instanceof StartupError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  let ends: Map<number, bigint>;
  try {
    const offsets = await admin.fetchTopicOffsets(topic).catch((error: Error) => {
      throw usageError(`cannot read topic ${topic}: ${error.message} (run "npx tokencircuit topics ensure")`);
    });
    ends = new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  const values: unknown[] = [];
  const waiting = new Set([...ends].filter(([, high]) => high > 0n).map(([p]) => p));
  if (waiting.size === 0) return new Map();
  // A throwaway group that never commits: reading the anchors leaves no trace on the cluster's offsets.
  const infra = new Infrastructure(connection, 'cli-anchors');
  const consumer = infra.kafka.consumer({
    groupId: `tokencircuit-cli-anchors-${randomBytes(6).toString('hex')}`,
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () => fail(new CliError(`reading ${topic} took longer than ${timeoutMs} ms`, EXIT.usage)),
        timeoutMs,
      );
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            if (message.value) {
              try {
                values.push(JSON.parse(message.value.toString('utf8')) as unknown);
              } catch {
                values.push(null); // named by latestByTenant
              }
            }
            if (BigInt(message.offset) + 1n >= (ends.get(partition) ?? 0n)) waiting.delete(partition);
            if (waiting.size === 0) {
              clearTimeout(timer);
              done();
            }
          },
        })
        .catch(fail);
    });
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await infra.close();
  }
  return latestByTenant(values, `topic ${topic}`);
}
