import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { ApiModuleOptions } from '@tokencircuit/api-http';
import type { DecisionPorts } from '@tokencircuit/decision-service';
import type { NotifierPorts } from '@tokencircuit/notifier-service';
import type { ProjectorPorts } from '@tokencircuit/projector-service';
import type { FleetModuleName } from './fleet-order.js';

/** The API's ports: where accepted events go, what it reads, what feeds the dashboard's live view. */
export type ApiPorts = Pick<ApiModuleOptions, 'publisher' | 'db' | 'liveFeed' | 'metrics' | 'budgetPublisher'>;

/**
 * Everything a mode provides, and the only thing that differs between modes: the ports of every module over
 * one set of clients (Kafka + Postgres, or the in-process bus + PGlite), and how a module other than the API is
 * hosted (its own health and metrics port, or a plain context whose metrics the API serves).
 */
export interface FleetAdapters {
  projector(log: Logger): Promise<ProjectorPorts>;
  decision(log: Logger): Promise<DecisionPorts>;
  notifier(log: Logger): Promise<NotifierPorts>;
  api(log: Logger): Promise<ApiPorts>;
  /** A module other than the API, created and initialised (and listening, when it has a port of its own). */
  host(name: Exclude<FleetModuleName, 'api'>, module: DynamicModule): Promise<INestApplicationContext>;
  /** Closes the clients once every module has stopped. */
  close(): Promise<void>;
}

/** Registries collected from modules hosted without a port, for the API's /metrics. */
export type MetricsRegistries = Registry[];
