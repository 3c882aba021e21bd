import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { exportedMetrics, selectedMetrics, withoutGrafanaVariables } from './support/promql';

const DASHBOARD = 'ops/grafana/switchyard-dashboard.json';
const TOKEN = 'metrics-token-for-the-grafana-board';

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; refId: string }[];
  panels?: Panel[];
}
const dashboard = JSON.parse(readFileSync(new URL(`../${DASHBOARD}`, import.meta.url), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; definition?: string }[] };
};
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
const graphs = panels.filter((p) => p.type !== 'row');
const expressions = graphs.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
/** `label_values(metric, label)` in a variable's query names a metric too. */
const variableMetrics = dashboard.templating.list.flatMap((v) =>
  [...(v.definition ?? '').matchAll(/label_values\(\s*([A-Za-z_:][\w:]*)/g)].map((m) => m[1] as string),
);

describe(`the Grafana board (${DASHBOARD})`, () => {
  let t: TestApp;
  let exported: Set<string>;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
    // Some traffic first, so the families that only have samples once used are served with them too.
    await t.post('/api/v1/quote', ETH_TO_BTC);
    exported = await exportedMetrics(t, TOKEN);
  });
  afterAll(() => t?.stop());

  it('selects only metrics the product exports: every expression, scraped /api/metrics against', () => {
    const unknown = expressions.flatMap(({ panel, expr }) =>
      selectedMetrics(withoutGrafanaVariables(expr))
        .filter((name) => !exported.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
    expect(variableMetrics.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('shows traffic, latency and errors per route, provider health, queues, tracking lag and webhooks', () => {
    const used = (name: string, grouping?: RegExp) =>
      expressions.some(
        ({ expr }) =>
          selectedMetrics(withoutGrafanaVariables(expr)).includes(name) && (!grouping || grouping.test(expr)),
      );
    const byRoute = /by \(route\b/;
    expect(used('switchyard_http_requests_total', byRoute), 'traffic per route').toBe(true);
    expect(used('switchyard_http_request_duration_seconds_bucket', /by \(route, le\)/), 'latency per route').toBe(true);
    expect(
      expressions.some(({ expr }) => byRoute.test(expr) && /status=~"(5|\[45\])\.\."/.test(expr)),
      'errors per route',
    ).toBe(true);
    for (const name of [
      'switchyard_provider_circuit_open',
      'switchyard_provider_quote_error_ratio',
      'switchyard_provider_call_duration_seconds_bucket',
      'switchyard_queue_jobs',
      'switchyard_queue_workers',
      'switchyard_tracking_lag_seconds',
      'switchyard_webhook_endpoints',
      'switchyard_webhook_failing_seconds',
    ]) {
      expect(used(name), name).toBe(true);
    }
  });

  it('is a well-formed board: parsable expressions, unique panel ids, a query on every graph', () => {
    expect(dashboard.uid).toBe('switchyard');
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const panel of graphs) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    }
    for (const { panel, expr } of expressions)
      expect(() => selectedMetrics(withoutGrafanaVariables(expr)), panel).not.toThrow();
  });
});
