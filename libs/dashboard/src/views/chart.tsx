import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { ChartColumns } from '../chart-data.js';

// Colour helps, but each series also has its own dash pattern and its name in the legend and the table.
const STYLE: Record<string, { stroke: string; dash?: number[] }> = {
  page: { stroke: '#b3261e' },
  block: { stroke: '#8a5300', dash: [8, 4] },
  advise: { stroke: '#1f5fa8', dash: [2, 3] },
  permission: { stroke: '#b3261e' },
  invariant_violation: { stroke: '#6b2fa0', dash: [10, 3, 2, 3] },
  ambiguous_effect: { stroke: '#8a5300', dash: [8, 4] },
  validation: { stroke: '#1f5fa8', dash: [2, 3] },
  missing_resource: { stroke: '#2e7d32', dash: [12, 6] },
  transient: { stroke: '#455a64', dash: [4, 2, 1, 2] },
};

/** Interventions per bucket, one line per series; the same numbers are in a table below it. */
export function Chart({ columns, title }: { columns: ChartColumns; title: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const width = Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 220,
        title,
        scales: { x: { time: true } },
        axes: [{}, { label: 'interventions', size: 60 }],
        series: [
          {},
          ...columns.series.map((s) => ({
            label: s.name.replace(/_/g, ' '),
            stroke: STYLE[s.name]?.stroke ?? '#333',
            dash: STYLE[s.name]?.dash,
            width: 2,
            points: { show: false },
          })),
        ],
      },
      [columns.x, ...columns.series.map((s) => s.counts)],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [columns, title]);
  return <div ref={host} class="chart" role="img" aria-label={`${title}; the numbers are in the table that follows`} />;
}
