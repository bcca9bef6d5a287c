import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';

const LAUNCHER = fileURLToPath(new URL('../../scripts/kafka/kafka.sh', import.meta.url));

export interface BenchKafka {
  readonly brokers: string[];
  readonly kafka: Kafka;
  /** Where the brokers came from, for the report. */
  readonly source: string;
  /** The launcher's broker process, when it is ours to measure (null for KAFKA_BROKERS). */
  brokerPid(): Promise<number | null>;
  /** Drops this run's lease: the launcher stops the broker only if the lease started it and no one else holds one. */
  release(): Promise<void>;
}

function launcher(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('bash', [LAUNCHER, ...args], { env, timeout: 15 * 60_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number')
        return reject(new Error(`could not run ${LAUNCHER}: ${error.message}`));
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)?.trim() ?? '';

/**
 * KAFKA_BROKERS when set, else the project's launcher under a lease held by this process — so a test run
 * sharing the broker keeps it, and a broker this run started is stopped again at the end.
 */
export async function acquireKafka(clientId: string): Promise<BenchKafka> {
  const client = (brokers: string[]) => new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING });
  const explicit = process.env.KAFKA_BROKERS?.trim();
  if (explicit) {
    const brokers = explicit
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    return {
      brokers,
      kafka: client(brokers),
      source: 'KAFKA_BROKERS',
      brokerPid: async () => null,
      release: async () => undefined,
    };
  }
  const lease = `bench-${process.pid}`;
  const env = { ...process.env, TC_KAFKA_LEASE_PID: String(process.pid) };
  const started = await launcher(['start', '--lease', lease], env);
  if (started.code !== 0) {
    throw new Error(
      `${LAUNCHER} start exited with ${started.code} (set KAFKA_BROKERS to use another broker):\n${started.stderr.trim()}`,
    );
  }
  const address = lastLine(started.stdout);
  if (!/^[\w.-]+:\d+$/.test(address))
    throw new Error(`${LAUNCHER} start printed no broker address (last line: "${address}")`);
  return {
    brokers: [address],
    kafka: client([address]),
    source: `local launcher (${LAUNCHER})`,
    brokerPid: async () => {
      const status = await launcher(['status'], env);
      const pid = /pid=(\d+)/.exec(status.stdout)?.[1];
      return pid ? Number(pid) : null;
    },
    release: async () => {
      const released = await launcher(['release', lease], env);
      if (released.code !== 0)
        throw new Error(`${LAUNCHER} release exited with ${released.code}: ${released.stderr.trim()}`);
    },
  };
}
