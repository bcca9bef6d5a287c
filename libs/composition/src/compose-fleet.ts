import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { createApiApp } from '@tokencircuit/api-http';
import { DecisionModule } from '@tokencircuit/decision-service';
import { NotifierModule } from '@tokencircuit/notifier-service';
import { ProjectorModule } from '@tokencircuit/projector-service';
import { composeModules, type ComposedModule } from '@tokencircuit/service-kit';
import type { FleetAdapters } from './fleet-adapters.js';
import { FLEET_START_ORDER, FLEET_STOP_ORDER, type FleetModuleName } from './fleet-order.js';
import type { FleetSettings } from './fleet-settings.js';
import { listening } from './listening.js';

export interface Fleet {
  /** Every started module's Nest context by name. */
  readonly contexts: ReadonlyMap<string, INestApplicationContext>;
  /** The API's app when it runs (its URL: `api.getUrl()`). */
  readonly api: NestFastifyApplication | undefined;
  /** Stops the modules in FLEET_STOP_ORDER, then closes the adapters' clients; once. */
  stop(): Promise<void>;
  /** A started module's context whose close stops the whole composition (a process or harness of one module). */
  module<T extends INestApplicationContext>(name: FleetModuleName): T;
}

/**
 * The one composition root: `modules` (those whose settings are absent are not run, e.g. the notifier without a
 * routing file) with `settings`, over `adapters`, started in FLEET_START_ORDER and stopped in FLEET_STOP_ORDER.
 * What runs is the same Nest module in every mode and in every process (the fleet, a standalone service, a
 * harness); only the adapters differ. A failed start closes what had started and the adapters, and rethrows.
 */
export async function composeFleet(
  settings: FleetSettings,
  adapters: FleetAdapters,
  modules: readonly FleetModuleName[],
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<Fleet> {
  let api: NestFastifyApplication | undefined;
  /** A module other than the API: its ports from the adapters, its Nest module, hosted as the adapters host. */
  const hosted =
    (name: Exclude<FleetModuleName, 'api'>, build: (moduleLog: Logger) => Promise<DynamicModule>) => async () =>
      adapters.host(name, await build(log.child({ app: name })));
  const { projector, decision, notifier } = settings;
  const starts: Record<FleetModuleName, (() => Promise<INestApplicationContext>) | null> = {
    projector: projector
      ? hosted('projector', async (moduleLog) =>
          ProjectorModule.forRoot({
            ports: await adapters.projector(moduleLog),
            settings: projector,
            policy,
            log: moduleLog,
          }),
        )
      : null,
    decision: decision
      ? hosted('decision', async (moduleLog) =>
          DecisionModule.forRoot({
            ports: await adapters.decision(moduleLog),
            settings: decision,
            policy,
            log: moduleLog,
          }),
        )
      : null,
    notifier: notifier
      ? hosted('notifier', async (moduleLog) =>
          NotifierModule.forRoot({
            ports: await adapters.notifier(moduleLog),
            settings: notifier.settings,
            notify: notifier.notify,
            log: moduleLog,
          }),
        )
      : null,
    api: settings.api
      ? async () => {
          const config = settings.api!;
          const moduleLog = log.child({ app: 'api' });
          const app = await createApiApp({ config, policy, log: moduleLog, ...(await adapters.api(moduleLog)) });
          api = await listening(app, {
            port: config.API_HTTP_PORT,
            host: config.API_HTTP_HOST,
            variable: 'API_HTTP_PORT',
          });
          moduleLog.info({ url: await api.getUrl(), tenants: config.apiKeys.tenants.length }, 'api listening');
          return api;
        }
      : null,
  };
  const composed: ComposedModule[] = FLEET_START_ORDER.flatMap((name) => {
    const start = modules.includes(name) ? starts[name] : null;
    return start ? [{ name, start }] : [];
  });
  try {
    const fleet = await composeModules(composed, FLEET_STOP_ORDER);
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        try {
          await fleet.stop();
        } finally {
          await adapters.close();
        }
      })());
    return {
      contexts: fleet.contexts,
      api,
      stop,
      module<T extends INestApplicationContext>(name: FleetModuleName): T {
        const context = fleet.contexts.get(name);
        if (!context) throw new Error(`composition: the ${name} module was not started`);
        return new Proxy(context, {
          get: (target, key) => {
            if (key === 'close') return stop;
            const value: unknown = Reflect.get(target, key, target);
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          },
        }) as T;
      },
    };
  } catch (error) {
    await adapters.close().catch(() => undefined);
    throw error;
  }
}
