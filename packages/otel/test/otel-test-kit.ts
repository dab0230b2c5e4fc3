import {
  type DataPoint,
  type Histogram,
  MeterProvider,
  type MetricData,
  MetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A reader that exports only when a test asks: `collect()` reads the current totals. */
class OnDemandMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/**
 * A real OTel SDK pipeline held in memory: finished spans in an `InMemorySpanExporter`, metrics
 * read on demand from a `MeterProvider`.
 */
export function createOtelKit() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandMetricReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const tracer = tracerProvider.getTracer("test");
  const meter = meterProvider.getMeter("test");

  function finishedSpans(): ReadableSpan[] {
    return exporter.getFinishedSpans();
  }

  /** The metric of that name as collected now, or undefined if nothing was recorded. */
  async function metricNamed(name: string): Promise<MetricData | undefined> {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === name);
  }

  /** The sum data points of a counter, by their `baton.outcome`. */
  async function counterByOutcome(name: string): Promise<Record<string, number>> {
    const metric = await metricNamed(name);
    const totals: Record<string, number> = {};
    for (const point of (metric?.dataPoints ?? []) as DataPoint<number>[]) {
      totals[String(point.attributes["baton.outcome"])] = point.value;
    }
    return totals;
  }

  /** The histogram data points of a metric. */
  async function histogramPoints(name: string): Promise<DataPoint<Histogram>[]> {
    const metric = await metricNamed(name);
    return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
  }

  return {
    tracer,
    meter,
    tracerProvider,
    meterProvider,
    finishedSpans,
    metricNamed,
    counterByOutcome,
    histogramPoints,
  };
}
