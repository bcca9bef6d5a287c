import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KAFKA_IMAGE } from '../support/kafka-container.js';
import { composeValidator, describeErrors, interpolate } from './compose-validation.js';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
}

const raw = parse(readFileSync(root('docker-compose.yml'), 'utf8')) as ComposeFile;
// What `docker compose` validates: the file after interpolation, here with no variables set (defaults).
const compose = interpolate(raw, {});
const validate = composeValidator();
const service = (name: string): Service => compose.services[name]!;

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const valid = validate(compose);

    expect(describeErrors(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it.each([
    [
      'an unknown service key',
      { services: { kafka: { image: 'apache/kafka:3.9.1', imagee: 'x' } } },
      '/services/kafka',
    ],
    [
      'a healthcheck interval that is no Go duration',
      { services: { db: { image: 'postgres:16', healthcheck: { interval: '5 seconds' } } } },
      '/services/db/healthcheck/interval',
    ],
    [
      'a port mapping that is no port',
      { services: { db: { image: 'postgres:16', ports: ['localhost:fivefour:5432'] } } },
      '/services/db/ports/0',
    ],
    [
      'an unknown depends_on condition',
      { services: { a: { image: 'x', depends_on: { b: { condition: 'service_ready' } } } } },
      '/services/a/depends_on',
    ],
  ])('would be rejected for %s (the check has teeth)', (_, bad, path) => {
    expect(validate(bad)).toBe(false);
    expect(describeErrors(validate.errors).some((line) => line.startsWith(path))).toBe(true);
  });

  it('only depends on services it defines, and migrates once Postgres is healthy', () => {
    for (const [name, definition] of Object.entries(compose.services)) {
      for (const target of Object.keys(definition.depends_on ?? {})) {
        expect(compose.services, `${name} depends on ${target}`).toHaveProperty(target);
      }
    }
    expect(service('migrate').depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(service('postgres').healthcheck?.test.join(' ')).toContain('pg_isready');
  });

  it('runs the same Kafka as the local launcher and the test containers', () => {
    const launcher = readFileSync(root('scripts/kafka/kafka.sh'), 'utf8');
    const launcherVersion = /TC_KAFKA_VERSION:-([0-9.]+)/.exec(launcher)?.[1];

    expect(service('kafka').image).toBe(KAFKA_IMAGE);
    expect(service('kafka').image).toBe(`apache/kafka:${launcherVersion}`);
  });

  it('advertises Kafka to compose services (kafka:29092) and to the host (localhost:9092)', () => {
    const env = service('kafka').environment!;
    const advertised = env.KAFKA_ADVERTISED_LISTENERS!.split(',');
    const listeners = env.KAFKA_LISTENERS!.split(',').map((listener) => listener.split('://')[0]);
    const protocols = env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP!.split(',').map((entry) => entry.split(':')[0]);

    expect(advertised).toEqual(['INTERNAL://kafka:29092', 'EXTERNAL://localhost:9092']);
    expect(service('kafka').ports).toEqual(['127.0.0.1:9092:9092']);
    for (const name of ['INTERNAL', 'EXTERNAL', env.KAFKA_CONTROLLER_LISTENER_NAMES!]) {
      expect(listeners).toContain(name);
      expect(protocols).toContain(name);
    }
    expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(env.KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR).toBe('1');
  });

  it('follows TC_KAFKA_HOST_PORT in both the port mapping and the advertised host listener', () => {
    const moved = interpolate(raw, { TC_KAFKA_HOST_PORT: '19094' }).services.kafka!;

    expect(moved.ports).toEqual(['127.0.0.1:19094:9092']);
    expect(moved.environment!.KAFKA_ADVERTISED_LISTENERS).toBe('INTERNAL://kafka:29092,EXTERNAL://localhost:19094');
  });

  it('builds the migrate service from a Dockerfile in the repo and runs npm run migrate', () => {
    const migrate = service('migrate');

    expect(existsSync(root(migrate.build!.dockerfile))).toBe(true);
    expect(migrate.command).toEqual(['npm', 'run', 'migrate']);
    expect(migrate.environment!.DATABASE_URL).toBe('postgres://postgres:tokencircuit@postgres:5432/tokencircuit');
  });

  it('connects each service as its own login role, whose password migrate sets, never as the superuser', () => {
    const migrate = service('migrate');
    for (const [name, role] of [
      ['projector', 'tokencircuit_projector'],
      ['decision', 'tokencircuit_decision'],
      ['api', 'tokencircuit_api'],
    ] as const) {
      const url = new URL(service(name).environment!.DATABASE_URL!);
      expect(url.username, name).toBe(role);
      const variable = `TOKENCIRCUIT_${name.toUpperCase()}_DB_PASSWORD`;
      expect(url.password, name).toBe(migrate.environment![variable]);
      const chosen = interpolate(raw, { [variable]: 'operator-chosen' });
      expect(new URL(chosen.services[name]!.environment!.DATABASE_URL!).password).toBe('operator-chosen');
      expect(chosen.services.migrate!.environment![variable]).toBe('operator-chosen');
    }
  });
});

describe('Compose interpolation used above', () => {
  it.each([
    ['${A:-x}', {}, 'x'],
    ['${A:-x}', { A: '' }, 'x'],
    ['${A-x}', { A: '' }, ''],
    ['${A}', { A: 'v' }, 'v'],
    ['$A/$$B', { A: 'v' }, 'v/$B'],
    ['${MISSING}', {}, ''],
  ])('%s with %o is %s', (input, env, expected) => {
    expect(interpolate(input, env as Record<string, string>)).toBe(expected);
  });
});
