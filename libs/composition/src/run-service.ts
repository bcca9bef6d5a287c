import { startFailureOf } from '@tokencircuit/service-kit';
import type { Fleet } from './compose-fleet.js';

/**
 * A process around `start` (a composed fleet): a failed start prints one line and exits with the code that names
 * what to fix (startFailureOf: 2 config, 3 Kafka, 4 database…) — composeFleet has closed what it opened by then,
 * so a consumer leaves its group at once. SIGINT or SIGTERM stop the fleet in its order, once, and the process
 * then ends by that signal, as Nest's shutdown hooks did.
 */
export async function runService(name: string, start: () => Promise<Fleet>): Promise<void> {
  let fleet: Fleet;
  try {
    fleet = await start();
  } catch (error) {
    const failure = startFailureOf(name, error);
    process.stderr.write(`${failure.line}\n`);
    process.exit(failure.exitCode);
  }
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    void fleet
      .stop()
      .catch((error: unknown) => process.stderr.write(`${name}: stop failed: ${String(error)}\n`))
      .finally(() => process.kill(process.pid, signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
