import { describe, expect, it } from 'vitest';
import type { DeployOutcome } from '../bench/soak/deploy';
import { judgeDeploys } from '../bench/soak/verdict';

const clean = (): DeployOutcome => ({
  migration: { folder: 'bench/soak/migrations/deploy-1', ms: 40 },
  steps: ['web-1', 'web-2', 'worker-1', 'worker-2'].map((process) => ({
    process,
    stopMs: 300,
    exit: '0',
    startMs: 4000,
  })),
  streams: { opened: 6, endedByServer: 6, resumed: 6, repeats: 0, slowestAnswerMs: 400, problems: [] },
});
const quiet = { byStatus: { '200': 900, '429': 12 }, serverErrorsDuring: 0 };

describe('the soak verdict on a rolling deploy', () => {
  it('passes a deploy that drained every process and dropped no request', () => {
    expect(judgeDeploys([clean(), clean()], [quiet, quiet])).toEqual([]);
  });

  it('fails on any 5xx or unanswered request inside the deploy window itself', () => {
    const failures = judgeDeploys([clean()], [{ byStatus: { '200': 900, '0': 2, '502': 1 }, serverErrorsDuring: 1 }]);
    expect(failures).toEqual([
      '1 5xx during deploys',
      '2 requests without an answer (connection errors) during deploys',
    ]);
  });

  it('fails on a process that had to be killed, a failed migration and a repeated stream event', () => {
    const d = clean();
    (d.steps[2] as { exit?: string }).exit = 'SIGKILL';
    d.migration.error = 'lock timeout';
    d.streams.problems.push('stream of t1 sent 1 seen events again');
    expect(judgeDeploys([d], [quiet])).toEqual([
      'deploy 1: migration failed: lock timeout',
      'deploy 1: worker-1 did not drain and exit 0 (SIGKILL)',
      'deploy 1: stream of t1 sent 1 seen events again',
    ]);
  });
});
