import 'reflect-metadata';
import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { startFailureOf } from '@tokencircuit/service-kit';
import { startServiceTracing } from '@tokencircuit/tracing';
import { apiUrlFile } from './embedded/api-url-file.js';
import { loadEmbeddedConfig } from './embedded/embedded-config.js';
import { fleetModeOf } from './fleet-mode.js';
import { composeConnected, startEmbedded } from './fleet-modes.js';

/** `npm start`: the whole backend in one process — embedded by default, against Kafka + Postgres when both are set. */
async function main(): Promise<void> {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-fleet');
  const mode = fleetModeOf(process.env);
  if (mode === 'connected') {
    await startConnected(process.env);
    return;
  }
  const config = loadEmbeddedConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'fleet' } });
  const runtime = await startEmbedded(config, policy, log);
  process.stdout.write(
    [
      '',
      'TokenCircuit Fleet is running (embedded mode: PGlite + in-process bus).',
      `  API          ${runtime.url}`,
      `  API docs     ${runtime.url}/docs`,
      `  Dashboard    ${runtime.url}/dashboard/   (sign in: npx tokencircuit dashboard --open)`,
      `  Data folder  ${config.pgliteDir}`,
      ...(config.notifier
        ? [
            `  Notifier     sinks ${[...config.notifier.notify.sinks.keys()].join(', ')} (from TOKENCIRCUIT_NOTIFY_FILE)`,
          ]
        : []),
      `  API key      ${config.TOKENCIRCUIT_API_KEYS ? '(from TOKENCIRCUIT_API_KEYS)' : `in ${config.apiKeysFile} (tenant:key)`}`,
      `  CLI          npx tokencircuit finds it through ${apiUrlFile(config)}; elsewhere: export TOKENCIRCUIT_URL=${runtime.url}`,
      '  Try it       npx tokencircuit demo   (in a second terminal)',
      '  Stop         Ctrl+C',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async () => {
    // A terminal's Ctrl+C reaches npm, tsx and this process alike: stop once.
    if (stopping) return;
    stopping = true;
    await runtime.stop();
    process.stdout.write('TokenCircuit Fleet stopped: HTTP closed, pending decisions finished, data flushed.\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/** `npm start` connected: composes the fleet, says where everything is, and stops it on Ctrl+C or SIGTERM. */
async function startConnected(env: Record<string, string | undefined>): Promise<void> {
  const runtime = await composeConnected(env);
  const { projector, decision, api, notifier } = runtime.config;
  const url = runtime.url;
  process.stdout.write(
    [
      '',
      'TokenCircuit Fleet is running against Kafka and Postgres.',
      `  Kafka        ${api.kafka.brokers.join(',')}`,
      `  Postgres     ${api.DATABASE_URL.replace(/:[^:@/]+@/, ':***@')}`,
      `  API          ${url}   docs: ${url}/docs`,
      `  CLI          export TOKENCIRCUIT_URL=${url} TOKENCIRCUIT_API_KEY=<a key of TOKENCIRCUIT_API_KEYS>`,
      `  Dashboard    ${url}/dashboard/   (sign in: npx tokencircuit dashboard --open)`,
      `  Projector    http://${projector.PROJECTOR_HTTP_HOST}:${projector.PROJECTOR_HTTP_PORT}/health/ready`,
      `  Decision     http://${decision.DECISION_HTTP_HOST}:${decision.DECISION_HTTP_PORT}/health/ready`,
      ...(notifier
        ? [
            `  Notifier     http://${notifier.settings.NOTIFIER_HTTP_HOST}:${notifier.settings.NOTIFIER_HTTP_PORT}/health/ready   (sinks: ${[...notifier.notify.sinks.keys()].join(', ')})`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await runtime.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  // startEmbedded and startConnected close what they opened before rethrowing: only the line is left.
  const failure = startFailureOf('tokencircuit', error);
  process.stderr.write(`${failure.line}\n`);
  process.exit(failure.exitCode);
});
