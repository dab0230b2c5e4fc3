import { describe, expect, it } from "vitest";
import { createWebAdapter, decodeWebThreadId, encodeWebThreadId } from "../src/index.js";

const web = createWebAdapter({ identify: () => null });

describe("web thread ids", () => {
  it("encodes {name}:{userId}:{threadName} and decodes it back", () => {
    for (const data of [
      { userId: "alice", threadName: "dm" },
      { userId: "u-1.x_Y", threadName: "thread-2" },
    ]) {
      const id = web.encodeThreadId(data);
      expect(id).toBe(`web:${data.userId}:${data.threadName}`);
      expect(web.decodeThreadId(id)).toEqual(data);
    }
  });

  it("uses the adapter's name as the prefix", () => {
    const other = createWebAdapter({ identify: () => null, name: "site" });
    expect(other.encodeThreadId({ userId: "a", threadName: "b" })).toBe("site:a:b");
    expect(() => other.decodeThreadId("web:a:b")).toThrow(/not a thread id of the "site" adapter/);
  });

  it("refuses parts that would not split back, and ids of other shapes", () => {
    expect(() => encodeWebThreadId("web", { userId: "a:b", threadName: "c" })).toThrow(/userId/);
    expect(() => encodeWebThreadId("web", { userId: "a", threadName: "" })).toThrow(/threadName/);
    expect(() => encodeWebThreadId("web", { userId: "a", threadName: "x".repeat(65) })).toThrow();
    for (const id of ["web:a", "web:a:b:c", "slack:a:b", "web::b", "web:a:b c"]) {
      expect(() => decodeWebThreadId("web", id), id).toThrow();
    }
  });

  it("puts all threads of one user in one channel", () => {
    expect(web.channelIdFromThreadId("web:alice:general")).toBe("web:alice");
    expect(web.channelIdFromThreadId("web:alice:dm")).toBe("web:alice");
  });

  it("calls the thread named dm a direct conversation, and no other", () => {
    expect(web.isDM("web:alice:dm")).toBe(true);
    expect(web.isDM("web:alice:general")).toBe(false);
    expect(web.isDM("web:alice:dm2")).toBe(false);
  });

  it("opens a user's DM as their dm thread", async () => {
    expect(await web.openDM("alice")).toBe("web:alice:dm");
    await expect(web.openDM("a:b")).rejects.toThrow(/userId/);
  });
});
