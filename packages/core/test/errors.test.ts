import { describe, expect, it } from "vitest";
import {
  AdapterError,
  AdmissionRejectedError,
  BATON_ERROR_CODES,
  BatonError,
  ConfigError,
  docsUrlFor,
  isBatonError,
  LockError,
  LockLostError,
  NotImplementedError,
  RateLimitError,
  ShutdownError,
  StateError,
  ValidationError,
} from "../src/index.js";

describe("BatonError", () => {
  it("should set message, code, and name", () => {
    const error = new BatonError("VALIDATION_FAILED", "bad input");
    expect(error.message).toBe("bad input");
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.name).toBe("BatonError");
  });

  it("should be instanceof Error", () => {
    const error = new BatonError("VALIDATION_FAILED", "bad input");
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(BatonError);
  });

  it("should propagate cause", () => {
    const cause = new Error("socket closed");
    const error = new BatonError("STATE_UNAVAILABLE", "state unreachable", { cause });
    expect(error.cause).toBe(cause);
  });

  it("should allow undefined cause", () => {
    const error = new BatonError("STATE_UNAVAILABLE", "state unreachable");
    expect(error.cause).toBeUndefined();
    expect("cause" in error).toBe(false);
  });

  it("keeps a cause that is not an Error", () => {
    const error = new BatonError("ADAPTER_FAILED", "platform said no", { cause: { status: 500 } });
    expect(error.cause).toEqual({ status: 500 });
  });

  it("prefixes the message with the step that failed and keeps the step", () => {
    const error = new BatonError("STATE_DISCONNECTED", "the state is disconnected", {
      step: "acquire thread lock",
    });
    expect(error.message).toBe("acquire thread lock: the state is disconnected");
    expect(error.step).toBe("acquire thread lock");
  });

  it("leaves the message unprefixed and the step undefined without a step", () => {
    const error = new BatonError("LOCK_FAILED", "held by another instance");
    expect(error.message).toBe("held by another instance");
    expect(error.step).toBeUndefined();
  });

  it("points docsUrl at the kebab-case anchor of its code", () => {
    const error = new BatonError("STATE_DISCONNECTED", "gone");
    expect(error.docsUrl).toBe(docsUrlFor("STATE_DISCONNECTED"));
    expect(error.docsUrl).toMatch(/\/docs\/errors\.md#state-disconnected$/);
  });

  it("gives every error code its own docs anchor", () => {
    const anchors = BATON_ERROR_CODES.map((code) => docsUrlFor(code).split("#")[1]);
    expect(new Set(anchors).size).toBe(BATON_ERROR_CODES.length);
    for (const anchor of anchors) expect(anchor).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it("names each subclass after its class, so logs show the kind of failure", () => {
    expect(new LockError("held").name).toBe("LockError");
    expect(new StateError("timeout", "slow").name).toBe("StateError");
    expect(new ConfigError(["x"]).name).toBe("ConfigError");
  });
});

describe("isBatonError", () => {
  it("recognizes a Baton error of any subclass", () => {
    expect(isBatonError(new BatonError("LOCK_LOST", "lost"))).toBe(true);
    expect(isBatonError(new LockError("held"))).toBe(true);
    expect(isBatonError(new ConfigError(["userName is required"]))).toBe(true);
  });

  it("rejects plain errors, non-errors and error-shaped objects", () => {
    expect(isBatonError(new Error("boom"))).toBe(false);
    expect(isBatonError("LOCK_FAILED")).toBe(false);
    expect(isBatonError(undefined)).toBe(false);
    expect(isBatonError({ code: "LOCK_FAILED", message: "not an Error" })).toBe(false);
  });

  it("matches only the given code when a code is passed", () => {
    const error = new LockError("held");
    expect(isBatonError(error, "LOCK_FAILED")).toBe(true);
    expect(isBatonError(error, "LOCK_LOST")).toBe(false);
  });

  it("recognizes a Baton error thrown by another copy of the package", () => {
    // What a second bundled copy of @baton/core throws: same shape, different class identity.
    class ForeignBatonError extends Error {
      readonly code = "LOCK_LOST" as const;
    }
    const foreign = new ForeignBatonError("lost");
    expect(isBatonError(foreign)).toBe(true);
    expect(isBatonError(foreign, "LOCK_LOST")).toBe(true);
  });

  it("rejects an Error whose code is not a Baton error code", () => {
    const systemError = Object.assign(new Error("refused"), { code: "ECONNREFUSED" });
    expect(isBatonError(systemError)).toBe(false);
  });
});

describe("ConfigError", () => {
  it("lists every problem in the message and keeps them as data", () => {
    const problems = ["userName is required", "concurrency.maxConcurrent must be at least 1"];
    const error = new ConfigError(problems);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.problems).toEqual(problems);
    expect(error.message).toContain("(2)");
    for (const problem of problems) expect(error.message).toContain(`  - ${problem}`);
  });

  it("copies the problem list, so later changes to the caller's array do not leak in", () => {
    const problems = ["userName is required"];
    const error = new ConfigError(problems);
    problems.push("added later");
    expect(error.problems).toEqual(["userName is required"]);
  });

  it("is a BatonError and an Error", () => {
    const error = new ConfigError(["x"]);
    expect(error).toBeInstanceOf(BatonError);
    expect(error).toBeInstanceOf(Error);
  });
});

describe("ValidationError", () => {
  it("sets code VALIDATION_FAILED and prefixes the step", () => {
    const error = new ValidationError("ttlMs must be positive", { step: "acquire lock" });
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe("acquire lock: ttlMs must be positive");
  });
});

describe("StateError", () => {
  it.each([
    { failure: "disconnected", code: "STATE_DISCONNECTED" },
    { failure: "unavailable", code: "STATE_UNAVAILABLE" },
    { failure: "timeout", code: "STATE_TIMEOUT" },
  ] as const)("maps failure $failure to code $code", ({ failure, code }) => {
    const error = new StateError(failure, "state call failed");
    expect(error.failure).toBe(failure);
    expect(error.code).toBe(code);
  });

  it("keeps the cause and the step of a failed state call", () => {
    const cause = new Error("ECONNRESET");
    const error = new StateError("unavailable", "redis unreachable", {
      cause,
      step: "accept message",
    });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe("accept message: redis unreachable");
  });
});

describe("LockError", () => {
  it("should set code to LOCK_FAILED", () => {
    expect(new LockError("held by another instance").code).toBe("LOCK_FAILED");
  });

  it("is a BatonError and an Error", () => {
    const error = new LockError("held");
    expect(error).toBeInstanceOf(BatonError);
    expect(error).toBeInstanceOf(Error);
  });

  it("should propagate cause", () => {
    const cause = new Error("conflict");
    expect(new LockError("held", { cause }).cause).toBe(cause);
  });
});

describe("LockLostError", () => {
  it("sets code LOCK_LOST and keeps the lock key and fence", () => {
    const error = new LockLostError("thread:slack:C1:1.2", 42, "extend returned false");
    expect(error.code).toBe("LOCK_LOST");
    expect(error.lockKey).toBe("thread:slack:C1:1.2");
    expect(error.fence).toBe(42);
    expect(error.message).toBe("extend returned false");
    expect(error).toBeInstanceOf(BatonError);
  });
});

describe("AdmissionRejectedError", () => {
  it("sets code ADMISSION_REJECTED and keeps the scope and retryAfterMs", () => {
    const error = new AdmissionRejectedError(
      "tenant",
      2000,
      "tenant T1 is at maxDetachedPerTenant",
    );
    expect(error.code).toBe("ADMISSION_REJECTED");
    expect(error.scope).toBe("tenant");
    expect(error.retryAfterMs).toBe(2000);
    expect(error).toBeInstanceOf(BatonError);
  });
});

describe("AdapterError", () => {
  it("sets code ADAPTER_FAILED and names the adapter", () => {
    const error = new AdapterError("slack", "chat.postMessage failed");
    expect(error.code).toBe("ADAPTER_FAILED");
    expect(error.adapter).toBe("slack");
  });
});

describe("RateLimitError", () => {
  it("should set code to RATE_LIMITED", () => {
    expect(new RateLimitError("slow down").code).toBe("RATE_LIMITED");
  });

  it("should store retryAfterMs", () => {
    expect(new RateLimitError("slow down", 5000).retryAfterMs).toBe(5000);
  });

  it("should allow undefined retryAfterMs", () => {
    expect(new RateLimitError("slow down").retryAfterMs).toBeUndefined();
  });

  it("is a BatonError and an Error", () => {
    const error = new RateLimitError("slow down", 1000);
    expect(error).toBeInstanceOf(BatonError);
    expect(error).toBeInstanceOf(Error);
  });

  it("should propagate cause", () => {
    const cause = new Error("429");
    expect(new RateLimitError("slow down", 1000, { cause }).cause).toBe(cause);
  });
});

describe("NotImplementedError", () => {
  it("should set code to NOT_IMPLEMENTED", () => {
    expect(new NotImplementedError("no ephemeral messages").code).toBe("NOT_IMPLEMENTED");
  });

  it("should store feature field", () => {
    expect(new NotImplementedError("no ephemeral messages", "postEphemeral").feature).toBe(
      "postEphemeral",
    );
  });

  it("should allow undefined feature", () => {
    expect(new NotImplementedError("not supported").feature).toBeUndefined();
  });

  it("is a BatonError and an Error", () => {
    const error = new NotImplementedError("not supported");
    expect(error).toBeInstanceOf(BatonError);
    expect(error).toBeInstanceOf(Error);
  });

  it("should propagate cause", () => {
    const cause = new Error("missing scope");
    expect(new NotImplementedError("not supported", "openDM", { cause }).cause).toBe(cause);
  });
});

describe("ShutdownError", () => {
  it("sets code SHUTTING_DOWN", () => {
    expect(new ShutdownError("shutdown began").code).toBe("SHUTTING_DOWN");
  });
});
