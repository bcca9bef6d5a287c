import { execFileSync, spawnSync } from 'node:child_process';
import { testBrokers } from '@tokencircuit/testing';

/**
 * kcat (librdkafka's command-line client, Debian package `kcat`): records produced by a client that is not
 * kafkajs, with each codec Kafka defines and with repeated headers, as Java, Go and librdkafka producers
 * send them. .ci/run installs it (ensure_kcat).
 */
export type KcatCodec = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

export interface KcatRecord {
  readonly key: string;
  /** One line: kcat splits its input on newlines, so a value must not hold one. */
  readonly value: string;
}

/** Between key and value on each input line (ASCII unit separator: never in JSON text unescaped). */
const KEY_DELIMITER = '\u001f';

/** Fails with what to do when kcat is missing, instead of a spawn ENOENT deep in a spec. */
export function requireKcat(): void {
  const probe = spawnSync('kcat', ['-V'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      'kcat is not installed: these specs produce records with a non-JavaScript client. ' +
        'Install it with `apt-get update && apt-get install -y kcat` (.ci/run does so in ensure_kcat).',
    );
  }
}

/**
 * Produces `records` to one partition in one kcat run: librdkafka batches them (one record batch per
 * linger window), compressed with `codec`. Every record carries `headers`, in order; a name given twice
 * is sent as two headers, as Kafka allows.
 */
export function kcatProduce(
  topic: string,
  records: readonly KcatRecord[],
  {
    codec = 'none',
    headers = [],
    partition = 0,
  }: {
    codec?: KcatCodec;
    headers?: readonly (readonly [string, string])[];
    /** 'by-key': Kafka's murmur2 partitioner on the key, as the Java client and kafkajs place records. */
    partition?: number | 'by-key';
  } = {},
): void {
  for (const { key, value } of records) {
    if (value.includes('\n') || value.includes(KEY_DELIMITER) || key.includes(KEY_DELIMITER)) {
      throw new Error('kcat records are one line each, without the key delimiter');
    }
  }
  const args = [
    '-P',
    '-b',
    testBrokers().join(','),
    '-t',
    topic,
    ...(partition === 'by-key' ? ['-X', 'partitioner=murmur2_random'] : ['-p', String(partition)]),
    '-K',
    KEY_DELIMITER,
    '-z',
    codec,
    '-X',
    'linger.ms=200',
    '-X',
    'acks=all',
    ...headers.flatMap(([name, value]) => ['-H', `${name}=${value}`]),
  ];
  execFileSync('kcat', args, {
    input: records.map(({ key, value }) => `${key}${KEY_DELIMITER}${value}`).join('\n') + '\n',
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 30_000,
  });
}

/** One record as kcat's JSON envelope shows it: headers as a flat [name, value, name, value, …] list. */
export interface KcatConsumed {
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  readonly payload: string | null;
  readonly headers: readonly string[];
}

/** Reads `topic` from the start to its end with kcat (a second non-JavaScript view of what was parked). */
export function kcatConsumeAll(topic: string): KcatConsumed[] {
  const out = execFileSync(
    'kcat',
    ['-C', '-b', testBrokers().join(','), '-t', topic, '-o', 'beginning', '-e', '-J', '-q'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return out
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as KcatConsumed & { headers?: string[] })
    .map((r) => ({ ...r, headers: r.headers ?? [] }));
}

/** The values of header `name` on a record read by kcat, in order. */
export function headerValues(record: KcatConsumed, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < record.headers.length; i += 2)
    if (record.headers[i] === name) values.push(record.headers[i + 1]!);
  return values;
}
