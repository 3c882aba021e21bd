import { parser } from '@prometheus-io/lezer-promql';
import type { TestApp } from './app';

/** Grafana's own variables in an expression, replaced by what a query would carry, so PromQL parses it. */
export function withoutGrafanaVariables(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m').replace(/\$\{?[A-Za-z_]\w*(:\w+)?\}?/g, 'x');
}

/** The metric names an expression selects, parsed with Prometheus's own PromQL grammar; throws on a syntax error. */
export function selectedMetrics(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  let error: number | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError) error ??= node.from;
      if (node.name !== 'VectorSelector') return;
      const identifier = node.node.getChild('Identifier');
      if (identifier) names.push(expr.slice(identifier.from, identifier.to));
      for (const matcher of node.node
        .getChildren('LabelMatchers')
        .flatMap((m) => m.getChildren('UnquotedLabelMatcher'))) {
        const text = expr.slice(matcher.from, matcher.to);
        const byName = /^__name__\s*=\s*"([^"]+)"$/.exec(text);
        if (byName?.[1]) names.push(byName[1]);
      }
    },
  });
  if (error !== undefined) throw new Error(`PromQL syntax error at ${error}: ${expr}`);
  return names;
}

const SAMPLE_SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

/**
 * Every metric name `GET /api/metrics` serves, read from the exposition itself: each family's
 * `# TYPE` line (present even before its first sample), and a histogram's `_bucket`, `_sum` and
 * `_count` series.
 */
export async function exportedMetrics(t: TestApp, token: string): Promise<Set<string>> {
  const res = await t.fetch('/api/metrics', { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`/api/metrics answered ${res.status}`);
  const names = new Set<string>();
  for (const line of (await res.text()).split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (!type) continue;
    const [, name, kind] = type as unknown as [string, string, string];
    names.add(name);
    for (const suffix of SAMPLE_SUFFIXES[kind] ?? []) names.add(`${name}${suffix}`);
  }
  return names;
}
