import { describe, expect, it } from 'vitest';
import { type StepOptions, type StopStepEvent, stopServiceInSteps } from './stop-steps';

/** A wait that lets every settled step win first, then calls the step's bound reached. */
const instantBound: StepOptions['wait'] = (_ms, signal) =>
  new Promise((resolve) => setImmediate(() => resolve(void signal)));

describe("a service's stop in steps", () => {
  it('runs every step, reports each, and rejects naming the steps that failed or were left running', async () => {
    const events: StopStepEvent[] = [];
    const ran: string[] = [];
    const stop = stopServiceInSteps(
      [
        ['workers', () => new Promise(() => {})],
        [
          'queues',
          () => {
            throw new Error('connection is closed');
          },
        ],
        ['context', () => void ran.push('context')],
      ],
      { budgetMs: 15_000, stepMs: 10_000, report: (e) => events.push(e), wait: instantBound },
    );
    await expect(stop).rejects.toThrow('stop steps not finished: workers, queues');
    expect(ran).toEqual(['context']);
    expect(events.map((e) => `${e.step} ${e.outcome}`)).toEqual([
      'workers started',
      'workers late',
      'queues started',
      'queues failed',
      'context started',
      'context done',
    ]);
  });

  it('resolves when every step finished', async () => {
    await expect(
      stopServiceInSteps([['http', () => Promise.resolve()]], { budgetMs: 1, stepMs: 1, report: () => {} }),
    ).resolves.toBeUndefined();
  });
});
