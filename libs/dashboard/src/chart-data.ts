import type { SeriesPoint } from './types.js';

export type ChartDimension = 'level' | 'failureClass';

export interface ChartColumns {
  /** Bucket starts, in seconds (uPlot's x unit). */
  readonly x: number[];
  /** One count column per series, aligned with x; every bucket present, zeros included. */
  readonly series: { readonly name: string; readonly counts: number[] }[];
}

export const LEVEL_ORDER = ['page', 'block', 'advise'];
export const CLASS_ORDER = [
  'permission',
  'invariant_violation',
  'ambiguous_effect',
  'validation',
  'missing_resource',
  'transient',
];

/** Buckets of the window with their counts per level or per class, in a stable series order. */
export function chartColumns(
  points: readonly SeriesPoint[],
  window: { from: string; to: string; bucketSeconds: number },
  by: ChartDimension,
): ChartColumns {
  const from = Date.parse(window.from) / 1000;
  const to = Date.parse(window.to) / 1000;
  const x: number[] = [];
  for (let t = from; t < to; t += window.bucketSeconds) x.push(t);
  const order = by === 'level' ? LEVEL_ORDER : CLASS_ORDER;
  const names = [...new Set([...order, ...points.map((p) => p[by])])].filter(
    (name) => order.includes(name) || points.some((p) => p[by] === name),
  );
  const columns = new Map(names.map((name) => [name, x.map(() => 0)]));
  for (const point of points) {
    const index = Math.round((Date.parse(point.bucket) / 1000 - from) / window.bucketSeconds);
    const column = columns.get(point[by]);
    if (column && index >= 0 && index < x.length) column[index]! += point.count;
  }
  return { x, series: names.map((name) => ({ name, counts: columns.get(name)! })) };
}

/** Totals per series name across the window. */
export function totalsOf(columns: ChartColumns): Record<string, number> {
  return Object.fromEntries(columns.series.map((s) => [s.name, s.counts.reduce((a, b) => a + b, 0)]));
}
