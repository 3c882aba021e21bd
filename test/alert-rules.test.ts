import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bullPrefix } from '../server/tracking/queues';
import { startTestApp, type TestApp } from './support/app';
import { signedInUser } from './support/dashboard';
import { exportedMetrics, selectedMetrics } from './support/promql';

const RULES = 'ops/prometheus/switchyard-rules.yml';
const RULE_TESTS = 'ops/prometheus/switchyard-rules.test.yml';
const TOKEN = 'metrics-token-for-alert-rules-0123';

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const rules = (parse(read(RULES)) as { groups: { rules: AlertRule[] }[] }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r): r is AlertRule & { alert: string } => typeof r.alert === 'string');
const ruleTests = parse(read(RULE_TESTS)) as {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
};

function promtool(...args: string[]) {
  const run = spawnSync('promtool', args, { cwd: new URL('..', import.meta.url).pathname, encoding: 'utf8' });
  if (run.error) {
    throw new Error(`promtool is not installed (Debian package prometheus): bash scripts/services.sh --with-promtool`);
  }
  return run;
}

describe(`the alert rules (${RULES})`, () => {
  it('pass `promtool check rules` and every unit test of `promtool test rules`', () => {
    const checked = promtool('check', 'rules', RULES);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    const tested = promtool('test', 'rules', RULE_TESTS);
    expect(tested.status, tested.stdout + tested.stderr).toBe(0);
  });

  it('cover what an operator must hear about', () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual(
      [
        'SwitchyardProviderBreakerOpen',
        'SwitchyardStaleSwaps',
        'SwitchyardTrackingLag',
        'SwitchyardHigh5xxRate',
        'SwitchyardQueueBacklogGrowing',
        'SwitchyardWebhookEndpointsFailing',
        'SwitchyardNotReady',
        'SwitchyardMetricsAbsent',
        'SwitchyardWorkersAbsent',
        'SwitchyardMaintenanceJobOverdue',
        'SwitchyardSignInFailureBurst',
        'SwitchyardLateSwapsGrowing',
      ].sort(),
    );
  });

  it('give each alert a severity, a summary, a `for` and its README runbook anchor', () => {
    for (const alert of alerts) {
      expect(alert.labels?.severity, alert.alert).toMatch(/^(critical|warning)$/);
      expect(alert.annotations?.summary, alert.alert).toBeTruthy();
      expect(alert.for, alert.alert).toMatch(/^\d+m$/);
      expect(alert.annotations?.runbook, alert.alert).toBe(`README.md#${alert.alert.toLowerCase()}`);
    }
  });

  it('unit-test every alert firing', () => {
    const fired = new Set(
      ruleTests.tests
        .flatMap((t) => (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0))
        .map((a) => a.alertname),
    );
    expect(alerts.map((a) => a.alert).filter((name) => !fired.has(name))).toEqual([]);
  });

  it('have a runbook paragraph in the README for each: what it means, what to look at, what to do', () => {
    const readme = read('README.md');
    const section = readme.split('\n### Alerts\n')[1]?.split('\n## ')[0] ?? '';
    for (const { alert } of alerts) {
      const runbook = section.split(`\n#### ${alert}\n`)[1]?.split('\n#### ')[0] ?? '';
      expect(runbook, `README runbook for ${alert}`).toMatch(/\*\*What it means\.\*\*/);
      expect(runbook, alert).toMatch(/\*\*Look at\*\*/);
      expect(runbook, alert).toMatch(/\*\*Do\*\*/);
    }
  });
});

describe('the metrics the alerts read', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t?.stop());

  const scrape = async () => {
    const res = await t.fetch('/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('are all exported by the product: every metric an expression selects is served at /api/metrics', async () => {
    const exported = await exportedMetrics(t, TOKEN);
    const unknown = alerts.flatMap((a) => selectedMetrics(a.expr).filter((name) => !exported.has(name)));
    expect(unknown).toEqual([]);
  });

  it('follow real state: readiness, workers per queue, maintenance runs, failing webhook endpoints', async () => {
    const before = await scrape();
    expect(sample(before, 'switchyard_ready')).toBe(1);
    expect(sample(before, 'switchyard_dependency_up{dependency="postgres"}')).toBe(1);
    expect(sample(before, 'switchyard_dependency_up{dependency="redis"}')).toBe(1);
    expect(sample(before, 'switchyard_queue_workers{queue="tracking"}')).toBe(0);
    expect(sample(before, 'switchyard_maintenance_last_success_timestamp_seconds{task="maintenance.sweep"}')).toBe(0);
    expect(sample(before, 'switchyard_maintenance_interval_seconds{task="maintenance.sweep"}')).toBe(30);
    expect(sample(before, 'switchyard_webhook_endpoints{state="failing"}')).toBe(0);
    expect(sample(before, 'switchyard_webhook_failing_seconds')).toBe(0);

    const worker = new Worker('tracking', async () => {}, {
      connection: { url: t.env.REDIS_URL },
      prefix: bullPrefix(t.app.config.redisPrefix),
    });
    try {
      await worker.waitUntilReady();
      const owner = await signedInUser(t.app, 'affiliate');
      await t.app.sql`
        insert into webhook_endpoints (id, owner_id, scope, url, secret, failing_since) values
          ('whe_000000000000000000fail', ${owner.id}, 'affiliate', 'https://example.com/a', 'whsec_A', now() - interval '1 hour'),
          ('whe_0000000000000000000ok1', ${owner.id}, 'affiliate', 'https://example.com/b', 'whsec_B', null)`;
      await t.app.sql`
        insert into webhook_endpoints (id, owner_id, scope, url, secret, enabled, failing_since) values
          ('whe_000000000000000000off1', ${owner.id}, 'affiliate', 'https://example.com/c', 'whsec_C', false, now() - interval '6 days')`;
      await t.app.sql`
        insert into maintenance_runs (job, last_succeeded_at, last_outcome)
        values ('maintenance.sweep', to_timestamp(1700000000), 'ok')`;

      const after = await scrape();
      expect(sample(after, 'switchyard_queue_workers{queue="tracking"}')).toBe(1);
      expect(sample(after, 'switchyard_maintenance_last_success_timestamp_seconds{task="maintenance.sweep"}')).toBe(
        1_700_000_000,
      );
      expect(sample(after, 'switchyard_webhook_endpoints{state="enabled"}')).toBe(2);
      expect(sample(after, 'switchyard_webhook_endpoints{state="failing"}')).toBe(1);
      expect(sample(after, 'switchyard_webhook_endpoints{state="disabled"}')).toBe(1);
      // The disabled endpoint's older failure is not counted: disabling it was the answer to it.
      expect(sample(after, 'switchyard_webhook_failing_seconds')).toBeGreaterThanOrEqual(3600);
      expect(sample(after, 'switchyard_webhook_failing_seconds')).toBeLessThan(6 * 24 * 3600);
    } finally {
      await worker.close();
    }
  });
});
