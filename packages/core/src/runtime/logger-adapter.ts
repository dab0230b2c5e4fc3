import type { Logger } from "../contracts/logger.js";
import { isPlainObject } from "./config-problems.js";

type PinoLevel = "debug" | "info" | "warn" | "error";

/**
 * The part of a pino logger the adapter uses. Declared here so core needs no pino import: pino
 * is only a dev dependency, for tests. A pino `Logger` is assignable to it.
 */
export interface PinoLikeLogger {
  readonly levels: { readonly values: Record<string, number> };
  bindings(): Record<string, unknown>;
  child(bindings: Record<string, unknown>): PinoLikeLogger;
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Recognizes pino by the members no upstream-shaped logger has: `levels.values`, `bindings()`
 * and `child(bindings)`. Duck-typed, so any pino version (or a pino-compatible logger) fits.
 */
function isPinoLike(logger: Logger | PinoLikeLogger): logger is PinoLikeLogger {
  const record = logger as unknown as Record<string, unknown>;
  const levels = record.levels as Record<string, unknown> | undefined;
  return (
    typeof levels === "object" &&
    levels !== null &&
    typeof levels.values === "object" &&
    levels.values !== null &&
    typeof record.bindings === "function" &&
    typeof record.child === "function"
  );
}

/**
 * Merges Baton's trailing log arguments into one pino fields object:
 * - plain objects are merged, later keys win;
 * - an `Error`, alone or under a field named `error` (Baton's habit), goes under `err`, the key
 *   pino's default serializer expands — elsewhere pino writes an Error as `{}`;
 * - anything else is kept in order under `args`, so nothing Baton logs is silently lost (pino
 *   would read it as printf values for the message instead).
 */
function mergeLogArgs(args: readonly unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const rest: unknown[] = [];
  for (const arg of args) {
    if (arg instanceof Error && !("err" in fields)) {
      fields.err = arg;
    } else if (isPlainObject(arg)) {
      for (const [key, value] of Object.entries(arg)) {
        if (key === "error" && value instanceof Error && !("err" in fields)) fields.err = value;
        else fields[key] = value;
      }
    } else {
      rest.push(arg);
    }
  }
  if (rest.length > 0) fields.args = rest;
  return fields;
}

/**
 * Upstream's logger shape (`warn(message, fields)`) on top of pino's (`warn(fields, message)`).
 * `child(prefix)` always branches from the logger the user gave, with the full `a:b` path under
 * `component`: a child of a pino child would repeat the `component` key in every line.
 */
class PinoLoggerAdapter implements Logger {
  constructor(
    private readonly root: PinoLikeLogger,
    private readonly target: PinoLikeLogger,
    private readonly component: string | undefined,
  ) {}

  debug(message: string, ...args: unknown[]): void {
    this.write("debug", message, args);
  }

  info(message: string, ...args: unknown[]): void {
    this.write("info", message, args);
  }

  warn(message: string, ...args: unknown[]): void {
    this.write("warn", message, args);
  }

  error(message: string, ...args: unknown[]): void {
    this.write("error", message, args);
  }

  child(prefix: string): Logger {
    const component = this.component === undefined ? prefix : `${this.component}:${prefix}`;
    return new PinoLoggerAdapter(this.root, this.root.child({ component }), component);
  }

  private write(level: PinoLevel, message: string, args: readonly unknown[]): void {
    // Always pass a fields object first: with it, pino never reads `message` as a format string.
    this.target[level](mergeLogArgs(args), message);
  }
}

/**
 * Makes a logger given as the `logger` option speak Baton's call shape. A pino logger is
 * wrapped: `warn("message-dropped", { deliveryKey, error })` becomes
 * `pino.warn({ deliveryKey, err: error }, "message-dropped")`, and `child("slack")` becomes
 * `pino.child({ component: "slack" })`. Any other logger is returned unchanged.
 */
export function adaptLogger(logger: Logger | PinoLikeLogger): Logger {
  if (!isPinoLike(logger)) return logger;
  const bound = logger.bindings().component;
  return new PinoLoggerAdapter(logger, logger, typeof bound === "string" ? bound : undefined);
}
