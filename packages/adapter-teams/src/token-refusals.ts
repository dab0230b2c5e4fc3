import { AsyncLocalStorage } from "node:async_hooks";
import type { Clock, Logger } from "@baton/core";

/** How long one warning about refused tokens stands for every refusal of the same reason. */
export const TOKEN_REFUSAL_WARN_INTERVAL_MS = 10_000;

/** At most this many reasons are tracked; any further one shares the `"other"` window. */
const MAX_REASONS = 32;

/** What the Teams SDK said about one request's token, gathered while the SDK checks it. */
interface RefusalScope {
  reason?: string;
  detail?: string;
}

const scopes = new AsyncLocalStorage<RefusalScope>();

/**
 * Runs the SDK's check of one request; the SDK's log lines about that request's token (see
 * {@link noteTokenRefusal}) land in the returned scope.
 */
export async function withRefusalScope<T>(
  run: () => Promise<T>,
): Promise<{ value: T; reason: string | undefined; detail: string | undefined }> {
  const scope: RefusalScope = {};
  const value = await scopes.run(scope, run);
  return { value, reason: scope.reason, detail: scope.detail };
}

function errorParts(parts: readonly unknown[]): { name?: string; message?: string } {
  for (const part of parts) {
    if (typeof part === "object" && part !== null) {
      const { name, message } = part as { name?: unknown; message?: unknown };
      if (typeof name === "string" || typeof message === "string") {
        return {
          ...(typeof name === "string" ? { name } : {}),
          ...(typeof message === "string" ? { message } : {}),
        };
      }
    }
  }
  return {};
}

/**
 * True for a Teams SDK log line about an inbound token (its JWT validator, or its HTTP front
 * refusing a request): lines anyone on the internet can cause by sending a forged request.
 * The first warning or error among them names the reason of the request's scope.
 */
export function noteTokenRefusal(
  sdkLoggerName: string,
  level: "debug" | "info" | "warn" | "error",
  parts: readonly unknown[],
): boolean {
  const [first, ...rest] = parts;
  const message = String(first);
  const fromValidator = sdkLoggerName.endsWith("/jwt-validator");
  const missingHeader = message.startsWith("inbound activity rejected");
  const refused = message === "JWT validation failed";
  if (!fromValidator && !missingHeader && !refused) return false;
  const scope = scopes.getStore();
  const complaint = level === "warn" || level === "error";
  if (complaint && scope !== undefined && scope.reason === undefined) {
    if (missingHeader) {
      scope.reason = "missing Authorization header";
    } else {
      const error = errorParts(rest);
      scope.reason = error.name ?? "token refused";
      if (error.message !== undefined) scope.detail = error.message.slice(0, 200);
    }
  }
  return true;
}

/**
 * One `warn` per refused request, rate-limited per reason: the first refusal of a reason is
 * logged, the next ones within {@link TOKEN_REFUSAL_WARN_INTERVAL_MS} are only counted, and the
 * next warning of that reason says how many were suppressed. Nothing is logged at error level:
 * a forged request is the sender's fault, and must not be able to flood the error log.
 */
export class TokenRefusalLog {
  private readonly windows = new Map<string, { startedAtMs: number; suppressed: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: () => Logger,
  ) {}

  refused(reason: string | undefined, detail: string | undefined): void {
    let key = reason ?? "token refused";
    if (!this.windows.has(key) && this.windows.size >= MAX_REASONS) key = "other";
    const now = this.clock.now();
    const window = this.windows.get(key);
    if (window !== undefined && now - window.startedAtMs < TOKEN_REFUSAL_WARN_INTERVAL_MS) {
      window.suppressed += 1;
      return;
    }
    this.windows.set(key, { startedAtMs: now, suppressed: 0 });
    this.logger().warn("teams: refused an activity whose Bot Framework token failed validation", {
      reason: key,
      ...(detail === undefined ? {} : { detail }),
      suppressed: window?.suppressed ?? 0,
    });
  }
}
