import type { Registry } from 'prom-client';
import { ApiMetrics } from '@tokencircuit/api-http';
import { DecisionMetrics } from '@tokencircuit/decision-relay';
import { NotifierMetrics } from '@tokencircuit/notifier-service';
import { ProjectorMetrics } from '@tokencircuit/projector-service';

/** The series names a metric family of each prom-client type exposes at /metrics. */
const SERIES_SUFFIXES: Record<string, readonly string[]> = {
  counter: [''],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/**
 * Every series name the services export, read from the very registries their /metrics serve (the projector's,
 * the decision service's, the API's and the notifier's, default process metrics included). Series Prometheus writes itself
 * for each scrape (`up`) are added: rules may use them.
 */
export async function exportedSeriesNames(): Promise<ReadonlySet<string>> {
  const registries: Registry[] = [
    new ProjectorMetrics().registry,
    new DecisionMetrics().registry,
    new ApiMetrics().registry,
    new NotifierMetrics().registry,
  ];
  const names = new Set<string>(['up']);
  for (const registry of registries) {
    for (const family of await registry.getMetricsAsJSON()) {
      const suffixes = SERIES_SUFFIXES[family.type];
      if (suffixes === undefined) throw new Error(`${family.name}: unknown metric type ${String(family.type)}`);
      for (const suffix of suffixes) names.add(`${family.name}${suffix}`);
    }
  }
  return names;
}
