import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { dropRunDatabases, namedFor, runOf, testDatabaseName, withAdmin } from './support/databases';
import { type StopOptions, stopInSteps } from './support/stop';

/** A clock that moves only when a step's bound is waited out, and a wait that lets every settled step win first. */
function fakeTime() {
  let clock = 0;
  const bounds: number[] = [];
  const lines: string[] = [];
  const options: StopOptions = {
    now: () => clock,
    wait: (ms, signal) =>
      new Promise((resolve) =>
        setImmediate(() => {
          if (!signal.aborted) {
            bounds.push(ms);
            clock += ms;
          }
          resolve();
        }),
      ),
    log: (line) => lines.push(line),
  };
  return { options, bounds, lines, advance: (ms: number) => (clock += ms) };
}

const never = () => new Promise(() => {});

describe('stopping what a test started', () => {
  it('moves on from a step still running at its bound, and runs the steps after it', async () => {
    const time = fakeTime();
    const ran: string[] = [];
    await stopInSteps(
      'app',
      [
        ['server', never],
        ['clients', () => ran.push('clients')],
      ],
      time.options,
    );
    expect(ran).toEqual(['clients']);
    expect(time.lines).toEqual(['[stop] app: server still running after 8.0 s; moving on']);
  });

  it('spends at most its budget however many steps hang: later ones get what is left, then are only started', async () => {
    const time = fakeTime();
    const started: string[] = [];
    const hang = (name: string) =>
      [
        name,
        () => {
          started.push(name);
          return never();
        },
      ] as const;
    await stopInSteps('app', [hang('a'), hang('b'), hang('c'), hang('d')], {
      ...time.options,
      budgetMs: 20_000,
      stepMs: 8_000,
    });
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(time.bounds).toEqual([8_000, 8_000, 4_000, 0]);
  });

  it('logs a failing step and a slow one, and never rejects', async () => {
    const time = fakeTime();
    await stopInSteps(
      'app',
      [
        [
          'redis keys',
          () => {
            throw new Error('connection refused');
          },
        ],
        ['simulators', async () => void time.advance(2_500)],
        ['quick', () => undefined],
      ],
      time.options,
    );
    expect(time.lines).toEqual([
      '[stop] app: redis keys failed: connection refused',
      '[stop] app: simulators took 2.5 s',
    ]);
  });
});

describe('scratch databases', () => {
  it("are named for this run's template, so its global teardown finds them", () => {
    const run = runOf(inject('templateDatabase'));
    expect(run).toMatch(/^[0-9a-f]{6}$/);
    expect(testDatabaseName('db', 'x1')).toMatch(new RegExp(`_db_${run}_x1$`));
  });

  it("are dropped with their run's template by the teardown, and another run's are left alone", async () => {
    const [ours, theirs] = [randomBytes(3).toString('hex'), randomBytes(3).toString('hex')];
    const names = [namedFor(ours), namedFor(ours, 'a'), namedFor(ours, 'b'), namedFor(theirs, 'a')];
    await withAdmin(async (sql) => {
      for (const name of names) await sql.unsafe(`create database "${name}"`);
    });
    try {
      expect((await dropRunDatabases(ours)).sort()).toEqual(names.slice(0, 3).sort());
      const left = await withAdmin((sql) => sql<{ datname: string }[]>`select datname from pg_database`);
      const remaining = left.map((row) => row.datname).filter((name) => names.includes(name));
      expect(remaining).toEqual([names[3]]);
    } finally {
      await dropRunDatabases(theirs);
    }
  });
});
