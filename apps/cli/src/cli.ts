import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { CliIo } from './io/cli-io.js';
import { CliError, EXIT, type ExitCode } from './io/exit-codes.js';

type Register = (program: Command, io: CliIo, done: (code: ExitCode) => void) => void;

/**
 * Every command by name, each module imported only when its command runs: a command's start pays for its
 * own dependencies (Nest, kafkajs, pg, PGlite…), `--version` for none. Help and unknown names load them all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  classify: async () => (await import('./classify/classify.command.js')).classifyCommand,
  simulate: async () => (await import('./simulate/simulate.command.js')).simulateCommand,
  demo: async () => (await import('./demo/demo.command.js')).demoCommand,
  tail: async () => (await import('./tail/tail.command.js')).tailCommand,
  state: async () => (await import('./audit/state.command.js')).stateCommand,
  audit: async () => (await import('./audit/audit.command.js')).auditCommand,
  verify: async () => (await import('./audit/verify.command.js')).verifyCommand,
  anchors: async () => (await import('./anchors/anchors.command.js')).anchorsCommand,
  replay: async () => (await import('./replay/replay.command.js')).replayCommand,
  whatif: async () => (await import('./whatif/whatif.command.js')).whatIfCommand,
  checkpoints: async () => (await import('./checkpoints/checkpoints.command.js')).checkpointsCommand,
  dashboard: async () => (await import('./dashboard/dashboard.command.js')).dashboardCommand,
  ack: async () => (await import('./resolve/resolve.command.js')).ackCommand,
  resolve: async () => (await import('./resolve/resolve.command.js')).resolveCommand,
  policy: async () => (await import('./policy/policy.command.js')).policyCommand,
  topics: async () => (await import('./topics/topics.command.js')).topicsCommand,
  mcp: async () => (await import('./mcp/mcp.command.js')).mcpCommand,
};

/** The package's version (package.json, found beside apps/ both from the sources and from dist/). */
function packageVersion(): string {
  const manifest = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The commands to register for `argv`: the one named first when it is known, else all (help, typos). */
async function registrations(argv: readonly string[]): Promise<Register[]> {
  const name = argv[0];
  const only = name === undefined ? undefined : COMMANDS[name];
  if (only) return [await only()];
  if (name === '--version' || name === '-V') return [];
  return Promise.all(Object.values(COMMANDS).map((load) => load()));
}

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
      'TokenCircuit Fleet command line: classify, simulate, demo, tail, state, audit, verify, anchors, replay, checkpoints, dashboard, ack, resolve, policy, topics, mcp',
    )
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showHelpAfterError('(run with --help for usage)');
  for (const register of await registrations(argv)) {
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
