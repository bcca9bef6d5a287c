import type { INestApplication } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { METRICS_REGISTRY } from '@tokencircuit/service-kit';

/** Count and mean of a histogram the app exposes on /metrics, read from its registry in this process. */
export async function histogramMean(app: INestApplication, name: string): Promise<{ count: number; mean: number }> {
  const registry = app.get<Registry>(METRICS_REGISTRY);
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  if (!metric) throw new Error(`the app has no metric ${name}`);
  const values = metric.values as { metricName?: string; value: number }[];
  const count = values.find((v) => v.metricName === `${name}_count`)?.value ?? 0;
  const sum = values.find((v) => v.metricName === `${name}_sum`)?.value ?? 0;
  return { count, mean: count === 0 ? 0 : sum / count };
}
