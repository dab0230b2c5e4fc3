import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { ConfigError, ConsoleLogger, type Logger, sleep } from "../../src/index.js";
import { adaptLogger, type PinoLikeLogger } from "../../src/runtime/logger-adapter.js";
import { createChatHarness } from "../chat/chat-harness.js";

/** A real pino logger writing JSON lines to memory: raw, and parsed. */
function memoryPino(options: pino.LoggerOptions = {}) {
  const raw: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line === "") continue;
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  const logger = pino({ level: "debug", ...options }, stream);
  return { logger, lines, raw };
}

function upstreamShapedLogger() {
  const calls: Array<[string, string, unknown[]]> = [];
  const logger: Logger = {
    debug: (message, ...args) => calls.push(["debug", message, args]),
    info: (message, ...args) => calls.push(["info", message, args]),
    warn: (message, ...args) => calls.push(["warn", message, args]),
    error: (message, ...args) => calls.push(["error", message, args]),
  };
  return { logger, calls };
}

/** Runs one slow mention and a second one that finds the lock held (default `drop`). */
async function dropOneMessage(h: Awaited<ReturnType<typeof createChatHarness>>) {
  h.chat.onNewMention(async () => {
    await sleep(h.clock, 100);
  });
  const first = h.send("@bot one");
  await h.clock.advance(1);
  const second = h.send("@bot two");
  const dropped = await second.done;
  await h.clock.advance(100);
  await first.done;
  return { dropped, key: `mock:${second.message.id}` };
}

describe("a pino logger as the logger option", () => {
  it("logs a lock-conflict drop as a warn line with the fields as top-level JSON keys", async () => {
    const { logger, lines } = memoryPino();
    const h = await createChatHarness({ logger });
    const { dropped, key } = await dropOneMessage(h);
    expect(dropped.outcome).toBe("dropped-lock-conflict");
    const line = lines.find((entry) => entry.msg === "message-dropped");
    expect(line).toBeDefined();
    expect(line?.level).toBe(logger.levels.values.warn);
    expect(line?.deliveryKey).toBe(key);
  });

  it("puts the Error of a { error } field under err, where pino serializes its message", async () => {
    const { logger, lines } = memoryPino();
    const h = await createChatHarness({ logger });
    await dropOneMessage(h);
    const line = lines.find((entry) => entry.msg === "message-dropped");
    expect(line?.error).toBeUndefined();
    expect(line?.err).toMatchObject({
      type: "LockError",
      message: expect.stringContaining("is held by another handler"),
    });
  });

  it("puts an Error argument under err with its message", async () => {
    const { logger, lines } = memoryPino();
    const h = await createChatHarness({ logger });
    h.chat.getLogger("jobs").error("job failed", new Error("disk full"), { jobId: "j1" });
    expect(lines.at(-1)).toMatchObject({
      level: logger.levels.values.error,
      msg: "job failed",
      component: "jobs",
      jobId: "j1",
      err: { type: "Error", message: "disk full" },
    });
  });

  it("keeps other arguments under args instead of reading them as printf values", () => {
    const { logger, lines } = memoryPino();
    adaptLogger(logger).info("100%s sure", "yes", 3);
    expect(lines.at(-1)).toMatchObject({ msg: "100%s sure", args: ["yes", 3] });
  });

  it("maps child(prefix) to a pino child with the component path, without repeating the key", () => {
    const { logger, lines, raw } = memoryPino();
    adaptLogger(logger).child?.("slack").child?.("api").debug("posted", { ok: true });
    expect(lines.at(-1)).toMatchObject({ msg: "posted", component: "slack:api", ok: true });
    // pino writes a key bound by two nested children twice in the raw line.
    expect(raw.at(-1)?.match(/"component"/g)).toHaveLength(1);
  });

  it("continues the component path of a pino logger that already has one", () => {
    const { logger, lines } = memoryPino();
    adaptLogger(logger.child({ component: "bot" }))
      .child?.("slack")
      .info("ready");
    expect(lines.at(-1)).toMatchObject({ msg: "ready", component: "bot:slack" });
  });

  it("respects the pino logger's own level", () => {
    const { logger, lines } = memoryPino({ level: "warn" });
    const adapted = adaptLogger(logger);
    adapted.info("not written");
    adapted.warn("written");
    expect(lines.map((entry) => entry.msg)).toEqual(["written"]);
  });
});

describe("other logger options", () => {
  it("passes an upstream-shaped logger through unchanged", async () => {
    const { logger, calls } = upstreamShapedLogger();
    expect(adaptLogger(logger)).toBe(logger);
    const h = await createChatHarness({ logger });
    expect(h.chat.getLogger("jobs")).toBe(logger);
    const { key } = await dropOneMessage(h);
    const drop = calls.find(([, message]) => message === "message-dropped");
    expect(drop?.[0]).toBe("warn");
    expect(drop?.[2][0]).toMatchObject({ deliveryKey: key, error: expect.any(Error) });
  });

  it("passes the console logger through unchanged", () => {
    const logger = new ConsoleLogger("debug");
    expect(adaptLogger(logger)).toBe(logger);
  });

  it("still takes a log level string and makes a console logger of it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      const h = await createChatHarness({ logger: "warn" });
      const logger = h.chat.getLogger("jobs");
      expect(logger).toBeInstanceOf(ConsoleLogger);
      logger.info("quiet");
      logger.warn("loud", { n: 1 });
      expect(info).not.toHaveBeenCalled();
      expect(warn).toHaveBeenCalledWith("[baton:jobs] loud", { n: 1 });
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
  });

  it("still rejects an unknown log level", async () => {
    await expect(createChatHarness({ logger: "loud" as never })).rejects.toThrow(ConfigError);
  });
});
