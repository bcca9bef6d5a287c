import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { countStoredEvents, disableOutboxNotify, readFailureStateRows } from '@tokencircuit/storage';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { Output } from '../io/output.js';
import { progressBar } from '../io/progress.js';
import { policyOption } from '../policy/policy-option.js';
import { openReplayDatabase } from './open-replay-database.js';
import { rebuild } from './rebuild.js';
import { readDigest } from './read-digest.js';
import { EXAMPLES, replayReport, replayText } from './replay-report.js';
import { diffDigests, differingColumns } from './state-digest.js';

interface ReplayOptions {
  readonly databaseUrl?: string;
  readonly dataDir?: string;
  readonly policy?: string;
  readonly keep?: boolean;
  readonly force?: boolean;
  readonly pageSize: string;
  readonly json?: boolean;
}

/**
 * `tokencircuit replay`: rebuilds every projection from agent_events into a fresh schema through the
 * projector's own pipeline and proves the state identical by digest. Exit 1 when it is not.
 */
export function replayCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  program
    .command('replay')
    .description('rebuild failure_state and decision_outbox from agent_events into a fresh schema and compare digests')
    .option('--database-url <url>', 'Postgres (default: $DATABASE_URL; without one, the embedded PGlite database)')
    .option(
      '--data-dir <dir>',
      'embedded data folder (PGlite in <dir>/pglite; default: $TOKENCIRCUIT_DATA_DIR, else ./.data)',
    )
    .option(
      '--policy <file>',
      'the policy the live projector ran with (default: $TOKENCIRCUIT_POLICY_FILE, else the RFC defaults)',
    )
    .option('--keep', 'keep the replay schema for inspection instead of dropping it')
    .option(
      '--force',
      'open the PGlite folder even though postmaster.pid says it is in use (only if its owner crashed)',
    )
    .option('--page-size <n>', 'events per transaction', '1000')
    .option('--json', 'one JSON object per line')
    .action(async (options: ReplayOptions) => {
      const pageSize = Number(options.pageSize);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 10_000) {
        throw usageError(`--page-size: "${options.pageSize}" must be an integer from 1 to 10000`);
      }
      if (options.databaseUrl && options.dataDir) throw usageError('--database-url and --data-dir: choose one');
      const out = new Output(io, options.json === true);
      const policy = policyOption(options.policy, io.env, io.cwd);
      const db = await openReplayDatabase(options, io);
      const schema = `replay_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${randomBytes(3).toString('hex')}`;
      try {
        const total = await countStoredEvents(db.live, db.liveSchema);
        out.note(`replaying ${total} event(s) of ${db.description} into schema ${schema}`);
        const rebuilt = await db.openReplaySchema(schema);
        // NOTIFY wakes the live decision service; rows of a replay schema are nothing it should look for.
        await disableOutboxNotify(rebuilt);
        const bar = progressBar(out, 'replay', total);
        const started = Date.now();
        let result;
        try {
          result = await rebuild(db.live, db.liveSchema, rebuilt, policy, {
            pageSize,
            signal: io.signal,
            onPage: (n) => bar.tick(n),
          });
        } finally {
          bar.stop();
        }
        const elapsedMs = Date.now() - started;
        const live = await readDigest(db.live, db.liveSchema);
        const replayed = await readDigest(rebuilt, schema);
        const columns = new Map<string, string[]>();
        if (live.digest !== replayed.digest) {
          // Name what differs for the keys the report shows: a tampered flat column reads as such.
          const keys = diffDigests(live, replayed).differing.slice(0, EXAMPLES);
          const liveRows = await readFailureStateRows(db.live, db.liveSchema, keys);
          const rebuiltRows = await readFailureStateRows(rebuilt, schema, keys);
          for (const key of keys)
            columns.set(key, differingColumns(liveRows.get(key) ?? {}, rebuiltRows.get(key) ?? {}));
        }
        const report = replayReport({
          columns,
          schema,
          kept: options.keep === true,
          rebuild: result,
          elapsedMs,
          live,
          rebuilt: replayed,
        });
        out.record(report);
        out.text(...replayText(report, out.c));
        done(report.identical ? EXIT.ok : EXIT.findings);
      } finally {
        if (!options.keep)
          await db.dropSchema(schema).catch((error: Error) => out.note(`could not drop ${schema}: ${error.message}`));
        else out.note(`kept schema ${schema} (DROP SCHEMA ${schema} CASCADE when done)`);
        await db.close();
      }
    });
}
