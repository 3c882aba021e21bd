import { Counter, type CounterConfiguration, Histogram, type HistogramConfiguration } from 'prom-client';

type CountLabel = 'route' | 'method' | 'status';
type DurationLabel = 'route' | 'method';

/** One route and method: requests by status, and the latency histogram's bucket counts, sum and count. */
interface Series {
  route: string;
  method: string;
  byStatus: Map<number, number>;
  /** Observations per bucket, not cumulative: index i for `le` bounds[i], the last for +Inf only. */
  inBucket: number[];
  sum: number;
  count: number;
}

/**
 * Public API requests, counted per request with a few number updates and turned into Prometheus
 * samples only when scraped. prom-client's own `inc` and `observe` check and hash the label set on
 * every call: about 3.5 µs a request in the Next process, measured, for two numbers.
 */
export class HttpRequestTally {
  private readonly series = new Map<string, Series>();

  constructor(readonly bounds: readonly number[]) {}

  record(route: string, method: string, status: number, seconds: number): void {
    const key = `${method} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        route,
        method,
        byStatus: new Map(),
        inBucket: new Array(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    series.byStatus.set(status, (series.byStatus.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket++;
    series.inBucket[bucket] = (series.inBucket[bucket] as number) + 1;
    series.sum += seconds;
    series.count++;
  }

  reset(): void {
    this.series.clear();
  }

  countSamples() {
    return [...this.series.values()].flatMap(({ route, method, byStatus }) =>
      [...byStatus].map(([status, value]) => ({ labels: { route, method, status: String(status) }, value })),
    );
  }

  /**
   * In prom-client's own shape (its `setValuePair`): cumulative `_bucket` samples up to `+Inf`, then
   * `_sum` and `_count`, the route and method as shared labels after `le`.
   */
  durationSamples(name: string) {
    return [...this.series.values()].flatMap(({ route, method, inBucket, sum, count }) => {
      const sharedLabels = { route, method };
      let below = 0;
      const buckets = [...this.bounds, '+Inf' as const].map((le, i) => {
        below += inBucket[i] as number;
        return { labels: { le }, sharedLabels, value: below, metricName: `${name}_bucket`, exemplar: null };
      });
      return [
        ...buckets,
        { labels: {}, sharedLabels, value: sum, metricName: `${name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels, value: count, metricName: `${name}_count`, exemplar: undefined },
      ];
    });
  }
}

/** A prom-client counter whose samples are the tally's requests by route, method and status. */
export class TalliedRequestCounter extends Counter<CountLabel> {
  constructor(
    private readonly tally: HttpRequestTally,
    configuration: CounterConfiguration<CountLabel>,
  ) {
    super(configuration);
  }

  override async get() {
    return { ...(await super.get()), values: this.tally.countSamples() };
  }

  override reset() {
    super.reset();
    // prom-client's constructor resets too, before the tally is set.
    this.tally?.reset();
  }
}

/**
 * A prom-client histogram whose samples are the tally's latencies by route and method. prom-client
 * builds a histogram's samples in `getForPromString` (its `get` and the registry's text exposition
 * both read them from there), so that is what this replaces.
 */
export class TalliedDurationHistogram extends Histogram<DurationLabel> {
  private readonly description: { name: string; help: string };

  constructor(
    private readonly tally: HttpRequestTally,
    configuration: Omit<HistogramConfiguration<DurationLabel>, 'buckets'>,
  ) {
    super({ ...configuration, buckets: [...tally.bounds] });
    this.description = { name: configuration.name, help: configuration.help };
  }

  async getForPromString() {
    const { name, help } = this.description;
    return { name, help, type: 'histogram', values: this.tally.durationSamples(name), aggregator: 'sum' };
  }

  override reset() {
    super.reset();
    // prom-client's constructor resets too, before the tally is set.
    this.tally?.reset();
  }
}
