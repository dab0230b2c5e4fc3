import type { Logger } from "@baton/core";
import type { AppOptions, IPlugin } from "@microsoft/teams.apps";
import { noteTokenRefusal } from "./token-refusals.js";

/** The Teams SDK's logger interface (`SdkLogger` of `@microsoft/teams.common`). */
export type SdkLogger = NonNullable<AppOptions<IPlugin>["logger"]>;
type LogLevel = Parameters<SdkLogger["log"]>[0];

/**
 * The Teams SDK's log lines, forwarded to a Baton logger (trace folds into debug). Its lines about
 * a refused inbound token go to debug: `TokenRefusalLog` warns once per refused request instead.
 */
export function toSdkLogger(logger: () => Logger, name = "teams-sdk"): SdkLogger {
  const line =
    (sdkLevel: "debug" | "info" | "warn" | "error") =>
    (...parts: unknown[]) => {
      const [first, ...rest] = parts;
      let level = sdkLevel;
      // Token refusals are summarized by the TokenRefusalLog, one warning per refused request.
      if (noteTokenRefusal(name, sdkLevel, parts)) level = "debug";
      logger()[level](`${name}: ${String(first)}`, rest.length > 0 ? { detail: rest } : undefined);
    };
  const sdk: SdkLogger = {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    trace: line("debug"),
    log: (level: LogLevel, ...parts: unknown[]) =>
      (level === "trace" ? sdk.debug : sdk[level])(...parts),
    child: (child: string) => toSdkLogger(logger, `${name}/${child}`),
  };
  return sdk;
}
