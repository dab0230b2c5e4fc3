import type { DispatchAttributes } from "@baton/core";
import {
  type DiagLogger,
  diag,
  type Meter,
  metrics,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createOtelObserver, DISPATCH_SPAN_NAME } from "../src/index.js";
import { createOtelKit } from "./otel-test-kit.js";

afterEach(() => {
  diag.disable();
  trace.disable();
  metrics.disable();
});

/** Routes OTel's diagnostics into a spy, to see what the observer reports. */
function captureDiag() {
  const error = vi.fn();
  const logger: DiagLogger = {
    error,
    warn: vi.fn(),
    info: vi.fn(),
    debug: vi.fn(),
    verbose: vi.fn(),
  };
  diag.setLogger(logger);
  return error;
}

describe("dispatch spans", () => {
  it("starts a baton.dispatch span with the baton.-prefixed dispatch attributes", () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    const span = observer.startDispatch({ adapter: "slack", tenant: "T1", strategy: "drop" });
    span.setAttributes({ route: "mention" });
    span.end("handled");
    const [finished] = kit.finishedSpans();
    expect(finished?.name).toBe(DISPATCH_SPAN_NAME);
    expect(finished?.kind).toBe(SpanKind.INTERNAL);
    expect(finished?.attributes).toEqual({
      "baton.adapter": "slack",
      "baton.tenant": "T1",
      "baton.strategy": "drop",
      "baton.route": "mention",
      "baton.outcome": "handled",
    });
    expect(finished?.status).toEqual({ code: SpanStatusCode.OK });
  });

  it("sets baton.outcome and baton.reason and an OK status for a drop", () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    observer.startDispatch({ adapter: "slack" }).end("dropped-lock-conflict", "lock held");
    const [finished] = kit.finishedSpans();
    expect(finished?.attributes).toMatchObject({
      "baton.outcome": "dropped-lock-conflict",
      "baton.reason": "lock held",
    });
    expect(finished?.status.code).toBe(SpanStatusCode.OK);
  });

  it("sets an ERROR status with the reason for the error outcome", () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    observer.startDispatch({ adapter: "slack" }).end("error", "state unavailable");
    expect(kit.finishedSpans()[0]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "state unavailable",
    });
  });

  it("sets an ERROR status for an abandoned turn's message", () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    observer.startDispatch({ adapter: "slack" }).end("abandoned");
    expect(kit.finishedSpans()[0]?.attributes).toMatchObject({ "baton.outcome": "abandoned" });
    expect(kit.finishedSpans()[0]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "abandoned",
    });
  });

  it("ignores a second end: one finished span keeps the first outcome", () => {
    const kit = createOtelKit();
    const diagErrors = captureDiag();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    const span = observer.startDispatch({ adapter: "slack" });
    span.end("handled");
    span.end("error", "late");
    span.setAttributes({ route: "late" });
    expect(kit.finishedSpans()).toHaveLength(1);
    expect(kit.finishedSpans()[0]?.attributes).toEqual({
      "baton.adapter": "slack",
      "baton.outcome": "handled",
    });
    expect(kit.finishedSpans()[0]?.status.code).toBe(SpanStatusCode.OK);
    expect(diagErrors).not.toHaveBeenCalled();
  });

  it("keeps attributes outside the allow-list, such as message text or user ids, off the span", () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    const leaky = { adapter: "slack", text: "my password", userId: "U42", outcome: "handled" };
    const span = observer.startDispatch(leaky as DispatchAttributes);
    span.setAttributes({ userId: "U42" } as Partial<DispatchAttributes>);
    span.end("ignored");
    expect(Object.keys(kit.finishedSpans()[0]?.attributes ?? {}).sort()).toEqual([
      "baton.adapter",
      "baton.outcome",
    ]);
    expect(kit.finishedSpans()[0]?.attributes["baton.outcome"]).toBe("ignored");
  });

  it("uses the global tracer and meter under tracerName when none is given", async () => {
    const kit = createOtelKit();
    trace.setGlobalTracerProvider(kit.tracerProvider);
    metrics.setGlobalMeterProvider(kit.meterProvider);
    const observer = createOtelObserver({ tracerName: "my-bot" });
    observer.startDispatch({ adapter: "slack" }).end("handled");
    observer.count("baton.deliveries", 1, { adapter: "slack", outcome: "handled" });
    expect(kit.finishedSpans()[0]?.instrumentationScope.name).toBe("my-bot");
    expect(await kit.counterByOutcome("baton.deliveries")).toEqual({ handled: 1 });
  });
});

describe("metrics", () => {
  it("adds to one Counter per name with the low-cardinality attributes", async () => {
    const kit = createOtelKit();
    const createCounter = vi.spyOn(kit.meter, "createCounter");
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    const base = { adapter: "slack", tenant: "T1", strategy: "queue" };
    observer.count("baton.deliveries", 1, { ...base, outcome: "handled" });
    observer.count("baton.deliveries", 1, { ...base, outcome: "handled" });
    observer.count("baton.deliveries", 1, { ...base, outcome: "queued" });
    expect(createCounter).toHaveBeenCalledTimes(1);
    expect(await kit.counterByOutcome("baton.deliveries")).toEqual({ handled: 2, queued: 1 });
    const metric = await kit.metricNamed("baton.deliveries");
    expect(metric?.descriptor.unit).toBe("{delivery}");
    expect(metric?.dataPoints[0]?.attributes).toEqual({
      "baton.adapter": "slack",
      "baton.tenant": "T1",
      "baton.strategy": "queue",
      "baton.outcome": "handled",
    });
  });

  it("never puts attributes outside the allow-list on a data point", async () => {
    const kit = createOtelKit();
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    const leaky = { adapter: "slack", outcome: "handled", threadId: "slack:C1:1.2", text: "hi" };
    observer.count("baton.deliveries", 1, leaky as Partial<DispatchAttributes>);
    const metric = await kit.metricNamed("baton.deliveries");
    expect(metric?.dataPoints[0]?.attributes).toEqual({
      "baton.adapter": "slack",
      "baton.outcome": "handled",
    });
  });

  it("records durations to one ms Histogram per name", async () => {
    const kit = createOtelKit();
    const createHistogram = vi.spyOn(kit.meter, "createHistogram");
    const observer = createOtelObserver({ tracer: kit.tracer, meter: kit.meter });
    observer.recordDurationMs("baton.handler.duration", 40, { adapter: "slack" });
    observer.recordDurationMs("baton.handler.duration", 60, { adapter: "slack" });
    observer.recordDurationMs("baton.queue.wait", 5, { adapter: "slack" });
    expect(createHistogram).toHaveBeenCalledTimes(2);
    const handler = await kit.metricNamed("baton.handler.duration");
    expect(handler?.descriptor.unit).toBe("ms");
    expect((await kit.histogramPoints("baton.handler.duration"))[0]?.value).toMatchObject({
      count: 2,
      sum: 100,
      min: 40,
      max: 60,
    });
    expect((await kit.metricNamed("baton.queue.wait"))?.descriptor.unit).toBe("ms");
  });
});

describe("a failing SDK", () => {
  it("never throws into Baton and reports through diag", () => {
    const diagErrors = captureDiag();
    const broken = () => {
      throw new Error("sdk down");
    };
    const tracer = { startSpan: broken, startActiveSpan: broken } as unknown as Tracer;
    const meter = { createCounter: broken, createHistogram: broken } as unknown as Meter;
    const observer = createOtelObserver({ tracer, meter });
    const span = observer.startDispatch({ adapter: "slack" });
    expect(() => span.setAttributes({ route: "mention" })).not.toThrow();
    expect(() => span.end("handled")).not.toThrow();
    expect(() => observer.count("baton.deliveries", 1, {})).not.toThrow();
    expect(() => observer.recordDurationMs("baton.queue.wait", 1, {})).not.toThrow();
    expect(diagErrors).toHaveBeenCalledTimes(3);
  });

  it("swallows a span whose end throws", () => {
    captureDiag();
    const kit = createOtelKit();
    const tracer = kit.tracer;
    const startSpan = tracer.startSpan.bind(tracer);
    vi.spyOn(tracer, "startSpan").mockImplementation((...args) => {
      const span = startSpan(...args);
      vi.spyOn(span, "end").mockImplementation(() => {
        throw new Error("exporter down");
      });
      return span;
    });
    const observer = createOtelObserver({ tracer, meter: kit.meter });
    expect(() => observer.startDispatch({ adapter: "slack" }).end("handled")).not.toThrow();
  });
});
