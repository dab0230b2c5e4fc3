import { describe, expect, it, vi } from "vitest";
import {
  type Author,
  Message,
  type MessageSubject,
  type SerializedMessage,
  setMessageAdapter,
  WORKFLOW_DESERIALIZE,
  WORKFLOW_SERIALIZE,
} from "../src/index.js";

const author: Author = {
  userId: "U123",
  userName: "testuser",
  fullName: "Test User",
  isBot: false,
  isMe: false,
};

function makeMessage(): Message {
  return new Message({
    id: "msg-1",
    threadId: "linear:ENG-123:c1",
    text: "Hello",
    author,
    metadata: { dateSent: new Date("2024-01-15T10:30:00.000Z"), edited: false },
  });
}

describe("Message", () => {
  describe("WORKFLOW_SERIALIZE / WORKFLOW_DESERIALIZE", () => {
    it("should serialize via static method", () => {
      const message = makeMessage();
      const serialized = Message[WORKFLOW_SERIALIZE](message);
      expect(serialized._type).toBe("baton:Message");
      expect(serialized.id).toBe("msg-1");
      expect(serialized).toEqual(message.toJSON());
    });

    it("should deserialize via static method", () => {
      const message = makeMessage();
      const restored = Message[WORKFLOW_DESERIALIZE](Message[WORKFLOW_SERIALIZE](message));
      expect(restored).toBeInstanceOf(Message);
      expect(restored.id).toBe(message.id);
      expect(restored.metadata.dateSent).toBeInstanceOf(Date);
      expect(restored.metadata.dateSent.toISOString()).toBe("2024-01-15T10:30:00.000Z");
    });

    it("uses the registered symbols of @workflow/serde, so the Workflow SDK finds them", () => {
      expect(WORKFLOW_SERIALIZE).toBe(Symbol.for("workflow-serialize"));
      expect(WORKFLOW_DESERIALIZE).toBe(Symbol.for("workflow-deserialize"));
    });

    it("rejects data that is not a serialized message, naming the field", () => {
      const broken = { ...makeMessage().toJSON(), id: 7 } as unknown as SerializedMessage;
      expect(() => Message[WORKFLOW_DESERIALIZE](broken)).toThrow("id must be a string");
    });
  });

  describe("subject", () => {
    it("should return null when no adapter is set", async () => {
      expect(await makeMessage().subject).toBeNull();
    });

    it("should return null when adapter has no fetchSubject", async () => {
      const message = makeMessage();
      setMessageAdapter(message, {});
      expect(await message.subject).toBeNull();
    });

    it("should return subject from adapter", async () => {
      const message = makeMessage();
      const expected: MessageSubject = {
        type: "issue",
        id: "ENG-123",
        title: "Fix bug",
        status: "In Progress",
        url: "https://linear.app/team/ENG-123",
        raw: {},
      };
      const fetchSubject = vi.fn().mockResolvedValue(expected);
      setMessageAdapter(message, { fetchSubject });

      expect(await message.subject).toEqual(expected);
      expect(fetchSubject).toHaveBeenCalledWith("linear:ENG-123:c1");
    });

    it("should cache the result", async () => {
      const message = makeMessage();
      const fetchSubject = vi.fn().mockResolvedValue({ type: "issue", id: "1", raw: {} });
      setMessageAdapter(message, { fetchSubject });

      await message.subject;
      await message.subject;
      expect(fetchSubject).toHaveBeenCalledTimes(1);
    });

    it("should cache null result", async () => {
      const message = makeMessage();
      const fetchSubject = vi.fn().mockResolvedValue(null);
      setMessageAdapter(message, { fetchSubject });

      expect(await message.subject).toBeNull();
      expect(await message.subject).toBeNull();
      expect(fetchSubject).toHaveBeenCalledTimes(1);
    });

    it("should handle concurrent access", async () => {
      const message = makeMessage();
      const fetchSubject = vi.fn().mockResolvedValue({ type: "issue", id: "1", raw: {} });
      setMessageAdapter(message, { fetchSubject });

      const [a, b] = await Promise.all([message.subject, message.subject]);
      expect(a).toEqual(b);
      expect(a).toEqual({ type: "issue", id: "1", raw: {} });
      expect(fetchSubject).toHaveBeenCalledTimes(1);
    });

    it("forgets a failed load, so the next read asks the adapter again", async () => {
      const message = makeMessage();
      const fetchSubject = vi
        .fn()
        .mockRejectedValueOnce(new Error("platform down"))
        .mockResolvedValueOnce({ type: "issue", id: "2", raw: {} });
      setMessageAdapter(message, { fetchSubject });

      await expect(message.subject).rejects.toThrow("platform down");
      expect(await message.subject).toEqual({ type: "issue", id: "2", raw: {} });
      expect(fetchSubject).toHaveBeenCalledTimes(2);
    });

    it("finds a lazily bound adapter only when the subject is first read", async () => {
      const message = makeMessage();
      const find = vi.fn(() => ({ fetchSubject: async () => null }));
      setMessageAdapter(message, find);
      expect(find).not.toHaveBeenCalled();
      expect(await message.subject).toBeNull();
      expect(find).toHaveBeenCalledTimes(1);
    });
  });
});
