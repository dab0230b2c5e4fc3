export {
  createOtelObserver,
  DEFAULT_TRACER_NAME,
  DISPATCH_SPAN_NAME,
  type OtelObserver,
  type OtelObserverOptions,
} from "./create-otel-observer.js";
export {
  ATTRIBUTE_PREFIX,
  METRIC_ATTRIBUTE_NAMES,
  SPAN_ATTRIBUTE_NAMES,
} from "./otel-attributes.js";
