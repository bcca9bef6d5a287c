import { Command, CommanderError } from 'commander';
import { anchorsCommand } from './anchors/anchors.command.js';
import { auditCommand } from './audit/audit.command.js';
import { ackCommand, resolveCommand } from './resolve/resolve.command.js';
import { stateCommand } from './audit/state.command.js';
import { verifyCommand } from './audit/verify.command.js';
import { checkpointsCommand } from './checkpoints/checkpoints.command.js';
import { classifyCommand } from './classify/classify.command.js';
import { dashboardCommand } from './dashboard/dashboard.command.js';
import { demoCommand } from './demo/demo.command.js';
import type { CliIo } from './io/cli-io.js';
import { CliError, EXIT, type ExitCode } from './io/exit-codes.js';
import { policyCommand } from './policy/policy.command.js';
import { replayCommand } from './replay/replay.command.js';
import { simulateCommand } from './simulate/simulate.command.js';
import { tailCommand } from './tail/tail.command.js';
import { topicsCommand } from './topics/topics.command.js';
import { whatIfCommand } from './whatif/whatif.command.js';

/**
 * Runs one `tokencircuit …` invocation against the given process parts and returns its exit code.
 * Errors never escape as stacks: a CliError prints its message, commander's usage errors exit 2.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  const done = (code: ExitCode) => {
    exitCode = code;
  };
  const program = new Command('tokencircuit')
    .description(
      'TokenCircuit Fleet command line: classify, simulate, demo, tail, state, audit, verify, anchors, replay, checkpoints, dashboard, ack, resolve, policy, topics',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');
  for (const register of [
    classifyCommand,
    simulateCommand,
    demoCommand,
    tailCommand,
    stateCommand,
    auditCommand,
    verifyCommand,
    anchorsCommand,
    replayCommand,
    whatIfCommand,
    checkpointsCommand,
    dashboardCommand,
    ackCommand,
    resolveCommand,
    policyCommand,
    topicsCommand,
  ]) {
    register(program, io, done);
  }
  for (const command of program.commands) command.exitOverride();

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; anything else commander refuses is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`tokencircuit: ${error.message}\n`);
      return error.exitCode;
    }
    if (io.signal.aborted) return EXIT.interrupted;
    throw error;
  }
}
