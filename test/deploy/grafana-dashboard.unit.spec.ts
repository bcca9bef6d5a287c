import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportedSeriesNames } from './support/exported-metrics.js';
import { readPromql, withoutGrafanaVariables } from './support/promql-metric-names.js';

const DASHBOARD_FILE = fileURLToPath(new URL('../../deploy/grafana/tokencircuit.json', import.meta.url));

interface Target {
  readonly expr: string;
  readonly refId: string;
  readonly datasource?: { readonly uid: string };
}
interface Panel {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly gridPos: { x: number; y: number; w: number; h: number };
  readonly targets?: readonly Target[];
  readonly datasource?: { readonly type: string; readonly uid: string };
}

describe('deploy/grafana/tokencircuit.json: an importable dashboard whose queries name exported metrics', () => {
  let dashboard: {
    uid: string;
    title: string;
    panels: Panel[];
    templating: { list: { name: string; type: string }[] };
  };
  let exported: ReadonlySet<string>;

  beforeAll(async () => {
    dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as typeof dashboard;
    exported = await exportedSeriesNames();
  });

  const queryPanels = () => dashboard.panels.filter((panel) => panel.type !== 'row');

  it('has a stable uid, unique panel ids, panels on the 24-column grid, and a Prometheus data source variable', () => {
    expect(dashboard.uid).toBe('tokencircuit-fleet');
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels)
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'datasource', type: 'datasource' }),
    );
    for (const panel of queryPanels()) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, `${panel.title} has queries`).toBeGreaterThan(0);
    }
  });

  it("every query parses with Prometheus's PromQL grammar (Grafana's interval variables replaced)", () => {
    for (const panel of queryPanels())
      for (const target of panel.targets!)
        expect(readPromql(withoutGrafanaVariables(target.expr)).errors, `${panel.title} ${target.refId}`).toEqual([]);
  });

  it('every metric a query names is exported by the projector, the decision service or the API', () => {
    const missing = queryPanels().flatMap((panel) =>
      panel.targets!.flatMap((target) =>
        readPromql(withoutGrafanaVariables(target.expr))
          .metrics.filter((name) => !exported.has(name))
          .map((name) => `${panel.title}: ${name}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
