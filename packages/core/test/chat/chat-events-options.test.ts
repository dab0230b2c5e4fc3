import { describe, expect, it } from "vitest";
import type { OptionsLoadEvent, OptionsLoadHandlerEvent } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";
import { recordingLogger, submitter } from "./chat-interactions-harness.js";

function optionsLoad(overrides: Partial<OptionsLoadEvent> = {}): OptionsLoadEvent {
  return { actionId: "person_select", query: "mar", user: submitter(), raw: {}, ...overrides };
}

describe("Chat", () => {
  describe("Options Load", () => {
    it("should call onOptionsLoad handler for a matching action ID", async () => {
      const h = await createChatHarness();
      const received: OptionsLoadHandlerEvent[] = [];
      h.chat.onOptionsLoad("person_select", (event) => {
        received.push(event);
        return [{ label: "Maria Garcia", value: "person_123" }];
      });

      const options = await h.chat.processOptionsLoad(h.adapter, optionsLoad());

      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ actionId: "person_select", query: "mar" });
      expect(received[0]?.adapter).toBe(h.adapter);
      expect(options).toEqual([{ label: "Maria Garcia", value: "person_123" }]);
    });

    it("should prefer specific handlers before catch-all handlers", async () => {
      const h = await createChatHarness();
      let catchAllCalls = 0;
      let specificCalls = 0;
      h.chat.onOptionsLoad(async () => {
        catchAllCalls += 1;
        return [{ label: "Fallback", value: "fallback" }];
      });
      h.chat.onOptionsLoad("person_select", async () => {
        specificCalls += 1;
        return [{ label: "Specific", value: "specific" }];
      });

      const options = await h.chat.processOptionsLoad(h.adapter, optionsLoad());

      expect(specificCalls).toBe(1);
      expect(catchAllCalls).toBe(0);
      expect(options).toEqual([{ label: "Specific", value: "specific" }]);
    });

    it("should fall back to catch-all handlers when no specific handler matches", async () => {
      const h = await createChatHarness();
      let catchAllCalls = 0;
      h.chat.onOptionsLoad("person_select", () => [{ label: "Specific", value: "specific" }]);
      h.chat.onOptionsLoad(async () => {
        catchAllCalls += 1;
        return [{ label: "Fallback", value: "fallback" }];
      });

      const options = await h.chat.processOptionsLoad(
        h.adapter,
        optionsLoad({ actionId: "unknown_select", query: "test" }),
      );

      expect(catchAllCalls).toBe(1);
      expect(options).toEqual([{ label: "Fallback", value: "fallback" }]);
    });

    it("should continue after handler errors", async () => {
      const { logger, lines } = recordingLogger();
      const h = await createChatHarness({ logger });
      let failingCalls = 0;
      let fallbackCalls = 0;
      h.chat.onOptionsLoad("person_select", async () => {
        failingCalls += 1;
        throw new Error("boom");
      });
      h.chat.onOptionsLoad(async () => {
        fallbackCalls += 1;
        return [{ label: "Recovered", value: "recovered" }];
      });

      const options = await h.chat.processOptionsLoad(h.adapter, optionsLoad());

      expect(failingCalls).toBe(1);
      expect(fallbackCalls).toBe(1);
      expect(options).toEqual([{ label: "Recovered", value: "recovered" }]);
      expect(lines).toContainEqual({
        level: "error",
        message: "options load handler failed",
        fields: expect.objectContaining({ actionId: "person_select" }),
      });
    });

    it("should support returning option groups", async () => {
      const h = await createChatHarness();
      h.chat.onOptionsLoad("user_select", async () => [
        { label: "Recent", options: [{ label: "Alice", value: "u1" }] },
        {
          label: "All",
          options: [
            { label: "Bob", value: "u2" },
            { label: "Carol", value: "u3" },
          ],
        },
      ]);

      const result = await h.chat.processOptionsLoad(
        h.adapter,
        optionsLoad({ actionId: "user_select", query: "" }),
      );

      expect(result).toHaveLength(2);
      expect((result as Array<{ label: string }>)[0]?.label).toBe("Recent");
    });

    it("resolves undefined when no handler answers, so the adapter answers an empty list", async () => {
      const h = await createChatHarness();
      const asked: string[] = [];
      h.chat.onOptionsLoad("person_select", () => {
        asked.push("specific");
        return undefined;
      });
      h.chat.onOptionsLoad(() => {
        asked.push("catch-all");
      });

      expect(await h.chat.processOptionsLoad(h.adapter, optionsLoad())).toBeUndefined();
      expect(asked).toEqual(["specific", "catch-all"]);
    });

    it("logs an answer that is not a list of options and asks the next handler", async () => {
      const { logger, lines } = recordingLogger();
      const h = await createChatHarness({ logger });
      h.chat.onOptionsLoad("person_select", () => [{ label: "No value" }] as never);
      h.chat.onOptionsLoad(() => [{ label: "Ok", value: "ok" }]);

      expect(await h.chat.processOptionsLoad(h.adapter, optionsLoad())).toEqual([
        { label: "Ok", value: "ok" },
      ]);
      expect(lines.find((line) => line.level === "error")?.fields).toMatchObject({
        actionId: "person_select",
        error: expect.objectContaining({ step: "load options for person_select" }),
      });
    });

    it("delivers the mock platform's options request through the Chat", async () => {
      const h = await createChatHarness();
      h.chat.onOptionsLoad("city", (event) =>
        ["Berlin", "Bern", "Boston"]
          .filter((city) => city.toLowerCase().startsWith(event.query.toLowerCase()))
          .map((city) => ({ label: city, value: city.toLowerCase() })),
      );

      expect(await h.adapter.modals.loadOptions("city", "ber")).toEqual([
        { label: "Berlin", value: "berlin" },
        { label: "Bern", value: "bern" },
      ]);
    });
  });
});
