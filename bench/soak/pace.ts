/**
 * A quota spread evenly over a window: the drivers start work as it falls due instead of running flat
 * out, so the floors are reached by the window's end with the rest of the machine left to the swap
 * traffic and the chaos. A driver that fell behind (an outage, a busy machine) catches up at its
 * concurrency's full speed, but not past a partner that is behind too: drivers tied with `share` catch
 * up side by side, each by its share of its own quota, whatever their concurrency.
 */
export class Pace {
  private started = 0;
  private partners: Pace[] = [];

  constructor(
    readonly quota: number,
    private readonly start: number,
    /** When the whole quota should have started. */
    private readonly finishBy: number,
    /** How far ahead of the even schedule a driver may run, so its lanes do not start in lockstep. */
    private readonly slack = 8,
  ) {}

  /** Claims the next unit: 0 if it may start now, else the ms until it is due; undefined once the quota is out. */
  claim(now = Date.now()): number | undefined {
    if (this.started >= this.quota) return undefined;
    const dueAt = this.start + ((this.started - this.slack) / this.quota) * this.span;
    if (dueAt > now) return dueAt - now;
    if (this.partners.some((p) => p.behind(now) && p.done + CATCH_UP_LEAD < this.done)) return CATCH_UP_WAIT_MS;
    this.started += 1;
    return 0;
  }

  /** The share of the quota started. */
  get done() {
    return this.started / this.quota;
  }

  /** Whether fewer units have started than the even schedule has fallen due by `now`. */
  behind(now: number) {
    return this.started < this.quota && this.started < ((now - this.start) / this.span) * this.quota;
  }

  private get span() {
    return Math.max(1, this.finishBy - this.start);
  }

  /** Ties drivers that share the machine: one that is behind holds back the others' catching up. */
  static share(...paces: Pace[]) {
    for (const pace of paces) pace.partners = paces.filter((p) => p !== pace);
  }

  /** Gives a claimed unit back (it got no answer and does not count). */
  release() {
    this.started = Math.max(0, this.started - 1);
  }

  get claimed() {
    return this.started;
  }
}

/** How far (a share of the quota) a catching-up driver may lead a partner that is behind too. */
const CATCH_UP_LEAD = 0.005;
const CATCH_UP_WAIT_MS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `concurrency` lanes that each run `work` whenever the pace lets one more unit start, until the quota
 * is out or the deadline passes. `work` answers false when its unit does not count (nobody answered):
 * the unit is given back and the lane waits a moment rather than spin through the quota.
 */
export async function pacedLanes(
  pace: Pace,
  deadline: number,
  concurrency: number,
  work: (lane: number) => Promise<boolean>,
) {
  const lane = async (index: number) => {
    while (Date.now() < deadline) {
      const wait = pace.claim();
      if (wait === undefined) return;
      if (wait > 0) {
        await sleep(Math.min(wait, deadline - Date.now()));
        continue;
      }
      if (!(await work(index))) {
        pace.release();
        await sleep(250);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => lane(i)));
}
