/**
 * A log-bucketed latency histogram: 0.1% wide buckets from 1 µs up, so memory stays fixed however
 * many samples a run records. Percentiles are read back as the bucket's geometric middle. (1% buckets
 * were 10 ms wide at one second: a p99 over a 1,000 ms deadline could only read +0.6, +10.5, +20.6 ms…)
 */
const GROWTH = 1.001;
const LOG_GROWTH = Math.log(GROWTH);
const MAX_BUCKETS = 24_000; // 1.001^24000 µs is far beyond any request deadline

export interface LatencySummary {
  count: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export class Histogram {
  private readonly buckets = new Uint32Array(MAX_BUCKETS);
  private total = 0;
  private sumUs = 0;
  private maxUs = 0;

  record(us: number): void {
    const index = us <= 1 ? 0 : Math.min(MAX_BUCKETS - 1, Math.floor(Math.log(us) / LOG_GROWTH) + 1);
    this.buckets[index] = (this.buckets[index] ?? 0) + 1;
    this.total += 1;
    this.sumUs += us;
    if (us > this.maxUs) this.maxUs = us;
  }

  get count(): number {
    return this.total;
  }

  /** The latency (µs) at quantile q in [0, 1]. */
  quantileUs(q: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let i = 0; i < MAX_BUCKETS; i++) {
      seen += this.buckets[i] ?? 0;
      if (seen >= rank) return i === 0 ? 1 : Math.min(this.maxUs, GROWTH ** (i - 0.5));
    }
    return this.maxUs;
  }

  summary(): LatencySummary {
    const ms = (us: number) => Math.round(us) / 1000;
    return {
      count: this.total,
      meanMs: this.total ? ms(this.sumUs / this.total) : 0,
      p50Ms: ms(this.quantileUs(0.5)),
      p90Ms: ms(this.quantileUs(0.9)),
      p99Ms: ms(this.quantileUs(0.99)),
      maxMs: ms(this.maxUs),
    };
  }
}
