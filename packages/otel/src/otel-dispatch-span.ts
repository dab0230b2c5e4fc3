import type { DispatchAttributes, DispatchOutcome, DispatchSpan } from "@baton/core";
import { type Span, SpanStatusCode } from "@opentelemetry/api";
import { ATTRIBUTE_PREFIX, SPAN_ATTRIBUTE_NAMES, toOtelAttributes } from "./otel-attributes.js";
import { reportFailure } from "./report-failure.js";

/**
 * One delivery's Baton span on top of an OpenTelemetry span. Baton ends a span exactly once;
 * should it ever call `end` again, the later call is ignored so the first outcome stands (OTel
 * would only warn, and the second outcome attribute would be dropped silently anyway).
 */
export class OtelDispatchSpan implements DispatchSpan {
  private ended = false;

  constructor(private readonly span: Span) {}

  setAttributes(attributes: Partial<DispatchAttributes>): void {
    if (this.ended) return;
    try {
      this.span.setAttributes(toOtelAttributes(attributes, SPAN_ATTRIBUTE_NAMES));
    } catch (error) {
      reportFailure("setAttributes", error);
    }
  }

  end(outcome: DispatchOutcome, reason?: string): void {
    if (this.ended) return;
    this.ended = true;
    try {
      this.span.setAttribute(`${ATTRIBUTE_PREFIX}outcome`, outcome);
      if (typeof reason === "string") this.span.setAttribute(`${ATTRIBUTE_PREFIX}reason`, reason);
      // Only `error` and `abandoned` (a turn that failed every attempt) are failures of Baton
      // or the bot; a drop, duplicate or expiry is Baton working as configured, so it must not
      // light up error dashboards.
      this.span.setStatus(
        outcome === "error" || outcome === "abandoned"
          ? { code: SpanStatusCode.ERROR, message: reason ?? outcome }
          : { code: SpanStatusCode.OK },
      );
      this.span.end();
    } catch (error) {
      reportFailure("end", error);
    }
  }
}

/** A span that records nothing: what `startDispatch` returns when the tracer fails. */
export const noopDispatchSpan: DispatchSpan = Object.freeze({
  setAttributes: () => {},
  end: () => {},
});
