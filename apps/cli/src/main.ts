import { runCli } from './cli.js';
import { EXIT } from './io/exit-codes.js';

/**
 * `npx tokencircuit …` (bin/tokencircuit.mjs loads this through tsx). The first Ctrl+C asks the
 * running command to stop at a safe point (tail ends, replay drops its schema); a second one exits.
 */
const controller = new AbortController();
const interrupt = () => {
  if (controller.signal.aborted) process.exit(EXIT.interrupted);
  controller.abort();
};
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);
// `tokencircuit … | head`: the reader has what it wanted; a closed pipe is the end, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
}

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  });
} catch (error) {
  process.stderr.write(`tokencircuit: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = EXIT.usage;
} finally {
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
}
