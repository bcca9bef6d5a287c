import { parser } from '@prometheus-io/lezer-promql';

/** What one PromQL expression names: its metric names, and where it does not parse (empty when it does). */
export interface PromqlReading {
  readonly metrics: readonly string[];
  readonly errors: readonly string[];
}

/**
 * Reads a PromQL expression with Prometheus's own grammar (@prometheus-io/lezer-promql, the parser of the
 * Prometheus web UI): every vector selector's metric name (`name{…}` or `{__name__="name"}`), and every place
 * the grammar could not parse. Grafana's variables ($__rate_interval, ${datasource}, …) must be replaced first.
 */
export function readPromql(expr: string): PromqlReading {
  const metrics = new Set<string>();
  const errors: string[] = [];
  const tree = parser.parse(expr);
  tree.iterate({
    enter(node) {
      if (node.type.isError) {
        errors.push(`cannot parse at ${node.from}: "${expr.slice(Math.max(0, node.from - 20), node.to + 20)}"`);
        return;
      }
      if (node.name === 'VectorSelector') {
        const identifier = node.node.getChild('Identifier');
        if (identifier) metrics.add(expr.slice(identifier.from, identifier.to));
      }
      if (node.name === 'UnquotedLabelMatcher') {
        const text = expr.slice(node.from, node.to);
        const match = /^__name__\s*=\s*"([^"]+)"$/.exec(text);
        if (match) metrics.add(match[1]!);
      }
    },
  });
  return { metrics: [...metrics].sort(), errors };
}

/** Grafana's built-in interval variables, replaced by durations so the expression is plain PromQL. */
export function withoutGrafanaVariables(expr: string): string {
  return expr
    .replaceAll(/\$__rate_interval|\$__interval|\$__range/g, '5m')
    .replaceAll(/\$\{?__rate_interval_ms\}?|\$\{?__interval_ms\}?/g, '300000');
}
