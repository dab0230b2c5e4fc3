import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { ConsoleLogger, type Logger, silentLogger } from "../src/index.js";

type ConsoleMethod = "debug" | "info" | "warn" | "error";

let spies: Record<ConsoleMethod, MockInstance>;

beforeEach(() => {
  spies = {
    debug: vi.spyOn(console, "debug").mockImplementation(() => {}),
    info: vi.spyOn(console, "info").mockImplementation(() => {}),
    warn: vi.spyOn(console, "warn").mockImplementation(() => {}),
    error: vi.spyOn(console, "error").mockImplementation(() => {}),
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

function logAtEveryLevel(logger: Logger): void {
  logger.debug("d");
  logger.info("i");
  logger.warn("w");
  logger.error("e");
}

function calledLevels(): ConsoleMethod[] {
  return (Object.keys(spies) as ConsoleMethod[]).filter((level) => spies[level].mock.calls.length);
}

describe("ConsoleLogger", () => {
  describe("default level (info)", () => {
    it("should not log debug messages", () => {
      new ConsoleLogger().debug("hidden");
      expect(spies.debug).not.toHaveBeenCalled();
    });

    it("should log info messages", () => {
      new ConsoleLogger().info("shown");
      expect(spies.info).toHaveBeenCalledWith("[baton] shown");
    });

    it("should log warn messages", () => {
      new ConsoleLogger().warn("shown");
      expect(spies.warn).toHaveBeenCalledWith("[baton] shown");
    });

    it("should log error messages", () => {
      new ConsoleLogger().error("shown");
      expect(spies.error).toHaveBeenCalledWith("[baton] shown");
    });
  });

  describe("debug level", () => {
    it("should log all levels including debug", () => {
      logAtEveryLevel(new ConsoleLogger("debug"));
      expect(calledLevels()).toEqual(["debug", "info", "warn", "error"]);
      expect(spies.debug).toHaveBeenCalledWith("[baton] d");
    });
  });

  describe("warn level", () => {
    it("should only log warn and error", () => {
      logAtEveryLevel(new ConsoleLogger("warn"));
      expect(calledLevels()).toEqual(["warn", "error"]);
    });
  });

  describe("error level", () => {
    it("should only log errors", () => {
      logAtEveryLevel(new ConsoleLogger("error"));
      expect(calledLevels()).toEqual(["error"]);
    });
  });

  describe("silent level", () => {
    it("should not log anything", () => {
      logAtEveryLevel(new ConsoleLogger("silent"));
      expect(calledLevels()).toEqual([]);
    });
  });

  describe("prefix formatting", () => {
    it("should use default prefix", () => {
      new ConsoleLogger().info("ready");
      expect(spies.info).toHaveBeenCalledWith("[baton] ready");
    });

    it("should use custom prefix", () => {
      new ConsoleLogger("info", "my-bot").info("ready");
      expect(spies.info).toHaveBeenCalledWith("[my-bot] ready");
    });
  });

  describe("extra args passthrough", () => {
    it("should forward extra arguments", () => {
      const details = { threadId: "slack:C1:1.2" };
      const cause = new Error("boom");
      new ConsoleLogger().error("handler failed", details, cause);
      expect(spies.error).toHaveBeenCalledWith("[baton] handler failed", details, cause);
      expect(spies.error.mock.calls[0]?.[1]).toBe(details);
    });
  });

  describe("child logger", () => {
    it("should create child with combined prefix", () => {
      new ConsoleLogger("info", "baton").child("dispatch").info("started");
      expect(spies.info).toHaveBeenCalledWith("[baton:dispatch] started");
    });

    it("should inherit log level", () => {
      const child = new ConsoleLogger("warn").child("dispatch");
      logAtEveryLevel(child);
      expect(calledLevels()).toEqual(["warn", "error"]);
    });

    it("nests child prefixes in order", () => {
      const runtime = new ConsoleLogger().child("runtime");
      expect(runtime).toBeInstanceOf(ConsoleLogger);
      (runtime as ConsoleLogger).child("shutdown").warn("draining");
      expect(spies.warn).toHaveBeenCalledWith("[baton:runtime:shutdown] draining");
    });
  });
});

describe("silentLogger", () => {
  it("writes nothing at any level, also through its children", () => {
    logAtEveryLevel(silentLogger);
    const child = silentLogger.child?.("x");
    expect(child).toBeDefined();
    if (child) logAtEveryLevel(child);
    expect(calledLevels()).toEqual([]);
  });
});
