import { diag } from "@opentelemetry/api";

/**
 * Reports a failure of the OpenTelemetry SDK through OTel's own diagnostic logger, the channel an
 * OTel user already watches for exporter trouble. Never throws: Baton's dispatch must not pay
 * for a broken telemetry pipeline.
 */
export function reportFailure(step: string, error: unknown): void {
  try {
    diag.error(`@baton/otel: ${step} failed; Baton continues without it`, error);
  } catch {
    // A throwing diag logger leaves nothing to report to.
  }
}
