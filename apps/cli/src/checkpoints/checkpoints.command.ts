import type { Command } from 'commander';
import { loadKafkaConnection } from '@tokencircuit/config';
import { TOPICS } from '@tokencircuit/contracts';
import type { PartitionPosition } from '@tokencircuit/projector-service/checkpoints';
import type { SqlDatabase } from '@tokencircuit/storage';
import type { Admin } from 'kafkajs';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';

interface CheckpointOptions {
  readonly databaseUrl?: string;
  readonly group: string;
  readonly topic: string;
  readonly partition?: string[];
  readonly json?: boolean;
}

/**
 * `tokencircuit checkpoints show|rebase`: the projector's Postgres checkpoints next to the broker's offsets,
 * and the operator's way out after a topic was recreated or a broker wiped (the projector stops rather than
 * skip the new records as "already applied"). Exit 1 from `show` when a partition is found reset.
 */
export function checkpointsCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const checkpoints = program
    .command('checkpoints')
    .description('show the projector checkpoints against the broker, or rebase them after a topic reset');
  const common = (command: Command) =>
    command
      .option('--database-url <url>', 'Postgres (default: $DATABASE_URL)')
      .option('--group <id>', 'projector consumer group', io.env['PROJECTOR_GROUP_ID'] ?? 'tokencircuit-projector')
      .option('--topic <name>', 'agent-events topic', io.env['AGENT_EVENTS_TOPIC'] ?? TOPICS.agentEvents.name)
      .option('--json', 'one JSON object per line');

  common(checkpoints.command('show').description('checkpoint, log start and high watermark of every partition')).action(
    async (options: CheckpointOptions) => {
      const out = new Output(io, options.json === true);
      const positions = await withParts(options, io, async (db, admin) => {
        const { partitionPositions } = await import('@tokencircuit/projector-service/checkpoints');
        return partitionPositions(db, logOffsetsOf(admin, options.topic), options.group, options.topic);
      });
      printPositions(out, positions);
      const reset = positions.filter((p) => p.reset);
      if (reset.length > 0) {
        out.note(
          `${reset.length} partition(s) have a checkpoint past the end of the log (topic recreated or broker wiped): ` +
            'run `tokencircuit checkpoints rebase` once you know the new log holds what must be applied',
        );
      }
      done(reset.length > 0 ? EXIT.findings : EXIT.ok);
    },
  );

  common(
    checkpoints
      .command('rebase')
      .description('move checkpoints to the start of the log the broker holds now (default: partitions found reset)')
      .option('--partition <n...>', 'rebase these partitions, reset or not'),
  ).action(async (options: CheckpointOptions) => {
    const partitions = options.partition?.map((p) => {
      const n = Number(p);
      if (!Number.isInteger(n) || n < 0) throw usageError(`--partition: "${p}" must be a partition number`);
      return n;
    });
    const out = new Output(io, options.json === true);
    const rebased = await withParts(options, io, async (db, admin) => {
      const { rebaseCheckpoints } = await import('@tokencircuit/projector-service/checkpoints');
      return rebaseCheckpoints(db, logOffsetsOf(admin, options.topic), options.group, options.topic, partitions);
    });
    for (const [partition, next] of rebased) {
      out.record({ group: options.group, topic: options.topic, partition, rebasedTo: next.toString() });
      out.text(`partition ${partition}: checkpoint rebased to ${next}`);
    }
    if (rebased.size === 0) out.note('nothing to rebase: no partition is reset (name one with --partition)');
    else out.note('restart the projector to resume from the rebased checkpoints');
    done(EXIT.ok);
  });
}

/**
 * The database and a broker admin, from the composition root's Infrastructure (the services' clients), loaded
 * only when a subcommand runs: `checkpoints --help` loads neither pg nor kafkajs, and nothing here loads Nest.
 */
async function withParts<T>(
  options: CheckpointOptions,
  io: CliIo,
  work: (db: SqlDatabase, admin: Admin) => Promise<T>,
): Promise<T> {
  const databaseUrl = options.databaseUrl ?? io.env['DATABASE_URL'];
  if (!databaseUrl) throw usageError('--database-url or $DATABASE_URL: the projector database is needed');
  if (!io.env['KAFKA_BROKERS']) throw usageError('$KAFKA_BROKERS: the broker holding the topic is needed');
  const { Infrastructure } = await import('@tokencircuit/composition/infrastructure');
  const infra = new Infrastructure(loadKafkaConnection(io.env), 'cli');
  const admin = infra.kafka.admin();
  try {
    await admin.connect();
    return await work(infra.database(databaseUrl, 1), admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
    await infra.close();
  }
}

function printPositions(out: Output, positions: readonly PartitionPosition[]): void {
  out.text('partition  checkpoint  log start  high watermark  state');
  for (const p of positions) {
    const state = p.reset ? 'RESET (checkpoint past the end of the log)' : p.checkpoint === null ? 'not started' : 'ok';
    out.record({
      partition: p.partition,
      checkpoint: p.checkpoint?.toString() ?? null,
      low: p.low.toString(),
      high: p.high.toString(),
      reset: p.reset,
    });
    out.text(
      `${String(p.partition).padStart(9)}  ${String(p.checkpoint ?? '-').padStart(10)}  ${String(p.low).padStart(9)}  ${String(p.high).padStart(14)}  ${state}`,
    );
  }
}

function logOffsetsOf(admin: Admin, topic: string) {
  return async () =>
    (await admin.fetchTopicOffsets(topic)).map(({ partition, low, high }) => ({
      partition,
      low: BigInt(low),
      high: BigInt(high),
    }));
}
