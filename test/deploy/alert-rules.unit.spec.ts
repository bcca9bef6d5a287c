import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportedSeriesNames } from './support/exported-metrics.js';
import { readPromql } from './support/promql-metric-names.js';

const RULES_FILE = fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url));
const CONFIG_FILE = fileURLToPath(new URL('../../deploy/prometheus/prometheus.yml', import.meta.url));

interface Rule {
  readonly alert?: string;
  readonly record?: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}
interface RuleGroup {
  readonly name: string;
  readonly rules: readonly Rule[];
}

// Prometheus durations (model.ParseDuration): units from ms to years, largest first, no fractions.
const DURATION = /^(\d+y)?(\d+w)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?(\d+ms)?$/;
const SEVERITIES = ['critical', 'warning'];

describe('deploy/prometheus/alerts.yml: the rules parse and every metric they name is exported', () => {
  let groups: readonly RuleGroup[];
  let exported: ReadonlySet<string>;

  beforeAll(async () => {
    // uniqueKeys: a key written twice in a rule would silently keep one of them.
    const document = parse(readFileSync(RULES_FILE, 'utf8'), { uniqueKeys: true, strict: true }) as {
      groups: RuleGroup[];
    };
    groups = document.groups;
    exported = await exportedSeriesNames();
  });

  const rules = () => groups.flatMap((group) => group.rules.map((rule) => ({ group: group.name, rule })));

  it('is a Prometheus rule file: named groups of rules, alert names unique, each an alert or a record', () => {
    expect(Array.isArray(groups) && groups.length).toBeGreaterThan(0);
    expect(new Set(groups.map((g) => g.name)).size).toBe(groups.length);
    for (const group of groups) {
      expect(group.name, 'group name').toMatch(/^\S+$/);
      expect(group.rules.length, `${group.name} has rules`).toBeGreaterThan(0);
      for (const rule of group.rules) {
        const allowed = rule.alert
          ? ['alert', 'expr', 'for', 'labels', 'annotations', 'keep_firing_for']
          : ['record', 'expr', 'labels'];
        expect(
          Object.keys(rule).filter((key) => !allowed.includes(key)),
          `${rule.alert ?? rule.record}: keys`,
        ).toEqual([]);
        expect(Boolean(rule.alert) !== Boolean(rule.record), 'alert xor record').toBe(true);
        expect(typeof rule.expr).toBe('string');
      }
    }
    const alerts = rules().flatMap(({ rule }) => (rule.alert ? [rule.alert] : []));
    expect(new Set(alerts).size).toBe(alerts.length);
  });

  it('every alert has a severity the routes know, a summary, and a valid `for`', () => {
    for (const { rule } of rules()) {
      if (!rule.alert) continue;
      expect(rule.alert).toMatch(/^TokenCircuit[A-Za-z]+$/);
      expect(SEVERITIES, `${rule.alert} severity`).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, `${rule.alert} summary`).toEqual(expect.any(String));
      if (rule.for !== undefined) expect(rule.for, `${rule.alert} for`).toMatch(DURATION);
    }
  });

  it("every expression parses with Prometheus's PromQL grammar", () => {
    for (const { rule } of rules()) expect(readPromql(rule.expr).errors, rule.alert ?? rule.record).toEqual([]);
  });

  it('every metric an expression names is exported by the projector, the decision service, the API or the notifier', () => {
    const recorded = new Set(rules().flatMap(({ rule }) => (rule.record ? [rule.record] : [])));
    const missing = rules().flatMap(({ rule }) =>
      readPromql(rule.expr)
        .metrics.filter((name) => !exported.has(name) && !recorded.has(name))
        .map((name) => `${rule.alert ?? rule.record}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('covers what the issue asks: dead letters, stuck partitions, lag, outbox depth and notifier failures', () => {
    const named = new Set(rules().flatMap(({ rule }) => readPromql(rule.expr).metrics));
    for (const metric of [
      'tokencircuit_projector_dlq_total',
      'tokencircuit_projector_stuck_seconds',
      'tokencircuit_projector_consumer_lag',
      'tokencircuit_decision_outbox_depth',
      'tokencircuit_notifier_dead_letters_total',
      'tokencircuit_notifier_deliveries_failed_total',
    ])
      expect(named, metric).toContain(metric);
  });

  it('promtool agrees, where it is installed (`promtool check rules`, `check config`)', (context) => {
    const probe = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    if (probe.error) {
      context.skip('promtool is not installed: the structural and PromQL checks above stand alone');
      return;
    }
    const rules = spawnSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8' });
    expect(rules.status, `${rules.stdout}${rules.stderr}`).toBe(0);
    // The example configuration loads the rules from beside it: promtool checks both together.
    const config = spawnSync('promtool', ['check', 'config', CONFIG_FILE], { encoding: 'utf8' });
    expect(config.status, `${config.stdout}${config.stderr}`).toBe(0);
  });
});

describe('readPromql: the extraction the checks above rely on', () => {
  it('finds names in selectors, ranges, subqueries and __name__ matchers, and nothing else', () => {
    expect(
      readPromql(
        'sum by (code) (rate(a_total{code!=""}[5m])) > 0 and deriv(sum(b)[10m:1m]) > 0 or {__name__="c_seconds"} unless absent(d)',
      ).metrics,
    ).toEqual(['a_total', 'b', 'c_seconds', 'd']);
  });

  it('reports what does not parse', () => {
    expect(readPromql('rate(a_total[5m]').errors).not.toEqual([]);
    expect(readPromql('sum by (le (a)').errors).not.toEqual([]);
  });
});
