import { describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { reportTracingErrors } from './report-errors';

function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', {}, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe('reportTracingErrors', () => {
  it('warns at once, then at most once a period, counting what it held back', () => {
    const { log, lines } = capturedLog();
    let now = 1_000_000;
    const report = reportTracingErrors(log, () => now, 60_000);
    report(new Error('connect ECONNREFUSED 127.0.0.1:4318'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, error: 'connect ECONNREFUSED 127.0.0.1:4318', heldBack: 0 });
    expect(String(lines[0]?.msg)).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);

    for (let i = 0; i < 11; i++) {
      now += 5_000;
      report(new Error('connect ECONNREFUSED 127.0.0.1:4318'));
    }
    expect(lines).toHaveLength(1);
    now += 5_000;
    report('Bad Request');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ error: 'Bad Request', heldBack: 11 });
  });
});
