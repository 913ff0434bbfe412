// Counters and histograms cheap enough for the hot path, exposed through a prom-client Registry.
// prom-client's own label children hash their labels again at every observation (≈0.5 µs each);
// here a series is made once per label combination and an observation is an addition. The
// registry asks each metric for its values at scrape time (`get()`), in prom-client's shape.
import type { Registry } from 'prom-client';

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };

function labelsOf(names: readonly string[], values: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) labels[names[i]!] = values[i] ?? '';
  return labels;
}

/** One counter series: add to `value`. */
export class CounterSeries {
  value = 0;
  constructor(readonly labels: Record<string, string>) {}
  inc(): void {
    this.value++;
  }
}

/** One histogram series: its per-bucket counts (not cumulative), sum and count. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }
  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

abstract class Family<S> {
  protected readonly series: S[] = [];
  constructor(
    readonly name: string,
    readonly help: string,
    protected readonly labelNames: readonly string[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }
  /** A new series for these label values (the caller keeps it). */
  abstract make(values: readonly string[]): S;
}

export class FastCounter extends Family<CounterSeries> {
  readonly type = 'counter';
  make(values: readonly string[]): CounterSeries {
    const s = new CounterSeries(labelsOf(this.labelNames, values));
    this.series.push(s);
    return s;
  }
  get() {
    const values: Value[] = this.series.map((s) => ({ labels: s.labels, value: s.value }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}

export class FastHistogram extends Family<HistogramSeries> {
  readonly type = 'histogram';
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    registry: Registry,
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames, registry);
  }
  make(values: readonly string[]): HistogramSeries {
    const s = new HistogramSeries(labelsOf(this.labelNames, values), this.bounds);
    this.series.push(s);
    return s;
  }
  get() {
    const values: Value[] = [];
    for (const s of this.series) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += s.counts[i]!;
        const le = i < this.bounds.length ? this.bounds[i]! : '+Inf';
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...s.labels, le },
          value: cumulative,
        });
      }
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }
}
