/** Log levels, most verbose first. `silent` logs nothing. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/**
 * The logger shape Baton calls (upstream's). Extra arguments are passed through untouched.
 * A pino logger fits as-is.
 */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
  /** A logger whose lines are attributed to a sub-component. Optional. */
  child?(prefix: string): Logger;
}

/** True for any object with the four level methods — the upstream logger shape. */
export function isLogger(value: unknown): value is Logger {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ["debug", "info", "warn", "error"].every(
    (level) => typeof candidate[level] === "function",
  );
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/**
 * A logger that writes `[prefix] message` to the console for `level` and above.
 * `child(name)` keeps the level and prefixes `prefix:name`.
 */
export class ConsoleLogger implements Logger {
  constructor(
    private readonly level: LogLevel = "info",
    private readonly prefix = "baton",
  ) {}

  debug(message: string, ...args: unknown[]): void {
    if (this.enabled("debug")) console.debug(`[${this.prefix}] ${message}`, ...args);
  }

  info(message: string, ...args: unknown[]): void {
    if (this.enabled("info")) console.info(`[${this.prefix}] ${message}`, ...args);
  }

  warn(message: string, ...args: unknown[]): void {
    if (this.enabled("warn")) console.warn(`[${this.prefix}] ${message}`, ...args);
  }

  error(message: string, ...args: unknown[]): void {
    if (this.enabled("error")) console.error(`[${this.prefix}] ${message}`, ...args);
  }

  child(prefix: string): ConsoleLogger {
    return new ConsoleLogger(this.level, `${this.prefix}:${prefix}`);
  }

  private enabled(level: Exclude<LogLevel, "silent">): boolean {
    return LEVEL_RANK[level] >= LEVEL_RANK[this.level];
  }
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
