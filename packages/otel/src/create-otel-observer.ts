import type { DispatchAttributes, Observer } from "@baton/core";
import {
  type Counter,
  type Histogram,
  type Meter,
  metrics,
  SpanKind,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import {
  METRIC_ATTRIBUTE_NAMES,
  SPAN_ATTRIBUTE_NAMES,
  toOtelAttributes,
} from "./otel-attributes.js";
import { noopDispatchSpan, OtelDispatchSpan } from "./otel-dispatch-span.js";
import { reportFailure } from "./report-failure.js";

/** Name of the span opened for every delivery. */
export const DISPATCH_SPAN_NAME = "baton.dispatch";

/** Default instrumentation scope name of the tracer and the meter. */
export const DEFAULT_TRACER_NAME = "@baton/otel";

/** Options of {@link createOtelObserver}. */
export interface OtelObserverOptions {
  /** The tracer spans are started on. Default: `trace.getTracer(tracerName)` (the global one). */
  tracer?: Tracer;
  /** The meter instruments are created on. Default: `metrics.getMeter(tracerName)`. */
  meter?: Meter;
  /** Instrumentation scope name of the default tracer and meter. Default `@baton/otel`. */
  tracerName?: string;
}

/**
 * The observer {@link createOtelObserver} returns: every telemetry member Baton exports to a
 * backend is present. `onDispatchEvent` is deliberately absent: its events carry delivery keys
 * and thread ids, which belong to local tools, never to traces or metric series.
 */
export type OtelObserver = Observer &
  Required<Pick<Observer, "startDispatch" | "count" | "recordDurationMs">>;

/** Descriptions and units of the instruments Baton is known to report (DESIGN §8). */
const KNOWN_INSTRUMENTS: Readonly<Record<string, { description: string; unit?: string }>> = {
  "baton.deliveries": {
    description: "Deliveries by disposition (attribute baton.outcome)",
    unit: "{delivery}",
  },
  "baton.handler.duration": { description: "Duration of one handler run", unit: "ms" },
  "baton.queue.wait": {
    description: "Time a message waited in a queue before it was taken",
    unit: "ms",
  },
};

/**
 * A Baton {@link Observer} that reports through `@opentelemetry/api`:
 * - `startDispatch` starts a span named `baton.dispatch` (kind INTERNAL) with `baton.adapter`,
 *   `baton.tenant`, `baton.strategy`, later `baton.route`; its `end(outcome, reason)` sets
 *   `baton.outcome` and `baton.reason`, the status (ERROR for `error` and `abandoned`, OK otherwise) and ends it.
 *   Only the first `end` counts.
 * - `count(name, …)` adds to a Counter of that name, `recordDurationMs(name, …)` records to a
 *   Histogram of that name with unit `ms`; instruments are created once per name, and data points
 *   carry only `baton.adapter`, `baton.tenant`, `baton.route`, `baton.strategy`, `baton.outcome`.
 *
 * Nothing it writes holds message text, user ids or thread ids. It never throws into Baton: a
 * failing SDK is reported through OTel's `diag` logger and the call is dropped.
 */
export function createOtelObserver(options: OtelObserverOptions = {}): OtelObserver {
  const scope = options.tracerName ?? DEFAULT_TRACER_NAME;
  const tracer = options.tracer ?? trace.getTracer(scope);
  const meter = options.meter ?? metrics.getMeter(scope);
  const counters = new Map<string, Counter>();
  const histograms = new Map<string, Histogram>();

  function counterNamed(name: string): Counter {
    let counter = counters.get(name);
    if (!counter) {
      counter = meter.createCounter(name, KNOWN_INSTRUMENTS[name] ?? {});
      counters.set(name, counter);
    }
    return counter;
  }

  function histogramNamed(name: string): Histogram {
    let histogram = histograms.get(name);
    if (!histogram) {
      const known = KNOWN_INSTRUMENTS[name];
      histogram = meter.createHistogram(name, {
        ...(known ? { description: known.description } : {}),
        unit: "ms",
      });
      histograms.set(name, histogram);
    }
    return histogram;
  }

  return {
    startDispatch(attributes: DispatchAttributes) {
      try {
        // INTERNAL, not CONSUMER: the platform's request is already the entry span (SERVER, from
        // HTTP instrumentation) and Baton talks to no message broker, so CONSUMER would invent a
        // messaging edge and imply messaging.* attributes. INTERNAL nests under whatever is active.
        const span = tracer.startSpan(DISPATCH_SPAN_NAME, {
          kind: SpanKind.INTERNAL,
          attributes: toOtelAttributes(attributes, SPAN_ATTRIBUTE_NAMES),
        });
        return new OtelDispatchSpan(span);
      } catch (error) {
        reportFailure("startDispatch", error);
        return noopDispatchSpan;
      }
    },
    count(name: string, value: number, attributes: Partial<DispatchAttributes>) {
      try {
        counterNamed(name).add(value, toOtelAttributes(attributes, METRIC_ATTRIBUTE_NAMES));
      } catch (error) {
        reportFailure(`count ${name}`, error);
      }
    },
    recordDurationMs(name: string, durationMs: number, attributes: Partial<DispatchAttributes>) {
      try {
        histogramNamed(name).record(
          durationMs,
          toOtelAttributes(attributes, METRIC_ATTRIBUTE_NAMES),
        );
      } catch (error) {
        reportFailure(`recordDurationMs ${name}`, error);
      }
    },
  };
}
