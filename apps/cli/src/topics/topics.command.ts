import type { Command } from 'commander';
import { ConfigError, loadKafkaConnection, StartupError } from '@tokencircuit/config';
import { connectAdmin, ensureTopics, loadTopicSettings } from '@tokencircuit/kafka';
import type { CliIo } from '../io/cli-io.js';
import { CliError, EXIT, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';

interface TopicsOptions {
  readonly check?: boolean;
  readonly json?: boolean;
}

/**
 * `tokencircuit topics ensure`: creates every missing topic of the product with its configured
 * partitions, replication factor and configs (the same definitions the services apply at start), and
 * reports existing topics that differ. Exit 0 when all are as configured, 1 when one differs or (with
 * --check) is missing, 2 when Kafka or the configuration is wrong.
 */
export function topicsCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('topics')
    .description('provision the Kafka topics (KAFKA_BROKERS and the topic variables of the README)')
    .command('ensure')
    .description('create missing topics as configured, report existing ones that differ')
    .option('--check', 'create nothing: only report (exit 1 when a topic is missing or differs)')
    .option('--json', 'one JSON object per topic')
    .action(async (options: TopicsOptions) => {
      const out = new Output(io, options.json === true);
      const { connection, settings } = configOf(io.env);
      let admin;
      try {
        admin = await connectAdmin(connection, settings.connectTimeoutMs);
      } catch (error) {
        if (error instanceof StartupError) throw new CliError(error.message, EXIT.usage);
        throw error;
      }
      try {
        const findings = await ensureTopics(admin, Object.values(settings.topics), {
          create: options.check !== true,
          replicationFactor: settings.replicationFactor,
        });
        for (const f of findings) {
          out.record(f);
          out.text(`${f.status.padEnd(16)} ${f.topic}  ${f.detail}`);
        }
        const differing = findings.filter((f) => f.status !== 'ok' && f.status !== 'created');
        if (differing.length > 0) out.note(`${differing.length} topic(s) not as configured`);
        done(differing.length > 0 ? EXIT.findings : EXIT.ok);
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    });
}

function configOf(env: Readonly<Record<string, string | undefined>>) {
  try {
    return { connection: loadKafkaConnection({ ...env }), settings: loadTopicSettings({ ...env }) };
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.problems.join('; '), EXIT.usage);
    throw error;
  }
}
