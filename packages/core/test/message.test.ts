import { describe, expect, it } from "vitest";
import {
  type Attachment,
  type Author,
  Message,
  type MessageInit,
  type SerializedMessage,
  ValidationError,
} from "../src/index.js";

const author: Author = {
  userId: "U123",
  userName: "ada",
  fullName: "Ada Lovelace",
  isBot: false,
  isMe: false,
};

function makeMessage(overrides: Partial<MessageInit> = {}): Message {
  return new Message({
    id: "msg-1",
    threadId: "slack:C123:1700000000.000100",
    text: "hello @baton",
    author,
    metadata: { dateSent: new Date("2024-03-01T10:00:00.000Z"), edited: false },
    ...overrides,
  });
}

/** A serialized message as a store would hand it back: plain JSON, untyped. */
function storedJson(message: Message): Record<string, unknown> {
  return JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
}

function fromUntrusted(value: unknown): Message {
  return Message.fromJSON(value as SerializedMessage);
}

describe("Message", () => {
  describe("constructor", () => {
    it("should assign all properties", () => {
      const attachments: Attachment[] = [{ type: "image", url: "https://x.test/a.png" }];
      const metadata = {
        dateSent: new Date("2024-03-01T10:00:00.000Z"),
        edited: true,
        editedAt: new Date("2024-03-01T10:05:00.000Z"),
      };
      const message = new Message({
        id: "msg-1",
        threadId: "slack:C123:1700000000.000100",
        text: "hello",
        author,
        metadata,
        attachments,
        raw: { ts: "1700000000.000100" },
      });
      expect(message.id).toBe("msg-1");
      expect(message.threadId).toBe("slack:C123:1700000000.000100");
      expect(message.text).toBe("hello");
      expect(message.author).toEqual(author);
      expect(message.metadata).toEqual(metadata);
      expect(message.attachments).toEqual(attachments);
      expect(message.raw).toEqual({ ts: "1700000000.000100" });
      expect(message.isMention).toBeUndefined();
    });

    it("should assign isMention when provided", () => {
      expect(makeMessage({ isMention: true }).isMention).toBe(true);
      expect(makeMessage({ isMention: false }).isMention).toBe(false);
    });

    it("defaults attachments to an empty list", () => {
      expect(makeMessage().attachments).toEqual([]);
    });
  });

  describe("toJSON()", () => {
    it("should produce correct type tag", () => {
      expect(makeMessage().toJSON()._type).toBe("baton:Message");
    });

    it("should serialize dates as ISO strings", () => {
      const json = makeMessage({
        metadata: {
          dateSent: new Date("2024-03-01T10:00:00.000Z"),
          edited: true,
          editedAt: new Date("2024-03-01T10:05:00.000Z"),
        },
      }).toJSON();
      expect(json.metadata.dateSent).toBe("2024-03-01T10:00:00.000Z");
      expect(json.metadata.editedAt).toBe("2024-03-01T10:05:00.000Z");
      expect(json.metadata.edited).toBe(true);
    });

    it("should strip data and fetchData from attachments", () => {
      const message = makeMessage({
        attachments: [
          {
            type: "file",
            name: "report.pdf",
            data: new Uint8Array([1, 2, 3]),
            fetchData: async () => new Uint8Array([1, 2, 3]),
          },
        ],
      });
      const [attachment] = message.toJSON().attachments;
      expect(attachment).toEqual({ type: "file", name: "report.pdf" });
      expect(attachment).not.toHaveProperty("data");
      expect(attachment).not.toHaveProperty("fetchData");
    });

    it("should preserve fetchMetadata in attachments", () => {
      const message = makeMessage({
        attachments: [{ type: "image", fetchMetadata: { fileId: "F1", teamId: "T1" } }],
      });
      expect(message.toJSON().attachments[0]?.fetchMetadata).toEqual({
        fileId: "F1",
        teamId: "T1",
      });
    });

    it("should preserve fetchMetadata through full JSON.stringify/parse roundtrip", () => {
      const message = makeMessage({
        attachments: [
          {
            type: "image",
            url: "https://files.test/F1",
            fetchMetadata: { fileId: "F1" },
            fetchData: async () => new Uint8Array(),
          },
        ],
      });
      const restored = fromUntrusted(storedJson(message));
      expect(restored.attachments).toEqual([
        { type: "image", url: "https://files.test/F1", fetchMetadata: { fileId: "F1" } },
      ]);
    });

    it("should include isMention flag", () => {
      expect(makeMessage({ isMention: true }).toJSON().isMention).toBe(true);
      expect(makeMessage({ isMention: false }).toJSON().isMention).toBe(false);
    });

    it("leaves isMention absent when it is unknown", () => {
      expect(makeMessage().toJSON()).not.toHaveProperty("isMention");
    });

    it("should preserve author.isSystem through a full JSON roundtrip", () => {
      const message = makeMessage({ author: { ...author, isSystem: true } });
      expect(fromUntrusted(storedJson(message)).author.isSystem).toBe(true);
    });

    it("should leave author.isSystem absent for non-system authors", () => {
      const json = storedJson(makeMessage());
      expect(json.author).not.toHaveProperty("isSystem");
      expect(fromUntrusted(json).author).not.toHaveProperty("isSystem");
    });

    it("should preserve author email through serialization", () => {
      const message = makeMessage({ author: { ...author, email: "ada@example.test" } });
      expect(message.toJSON().author.email).toBe("ada@example.test");
      expect(fromUntrusted(storedJson(message)).author.email).toBe("ada@example.test");
    });

    it("keeps the thread id, so a queued message replies in its own thread", () => {
      const message = makeMessage({ threadId: "slack:C123:1700000000.000200" });
      expect(message.toJSON().threadId).toBe("slack:C123:1700000000.000200");
      expect(fromUntrusted(storedJson(message)).threadId).toBe("slack:C123:1700000000.000200");
    });

    it("is what JSON.stringify writes", () => {
      const message = makeMessage();
      expect(JSON.parse(JSON.stringify(message))).toEqual(message.toJSON());
    });
  });

  describe("fromJSON()", () => {
    it("should convert ISO strings back to Dates", () => {
      const json = storedJson(
        makeMessage({
          metadata: {
            dateSent: new Date("2024-03-01T10:00:00.000Z"),
            edited: true,
            editedAt: new Date("2024-03-01T10:05:00.000Z"),
          },
        }),
      );
      const restored = fromUntrusted(json);
      expect(restored.metadata.dateSent).toBeInstanceOf(Date);
      expect(restored.metadata.dateSent.toISOString()).toBe("2024-03-01T10:00:00.000Z");
      expect(restored.metadata.editedAt).toBeInstanceOf(Date);
      expect(restored.metadata.editedAt?.toISOString()).toBe("2024-03-01T10:05:00.000Z");
    });

    it("should handle missing editedAt", () => {
      const restored = fromUntrusted(storedJson(makeMessage()));
      expect(restored.metadata.editedAt).toBeUndefined();
      expect(restored.metadata).not.toHaveProperty("editedAt");
    });

    it("returns a Message instance", () => {
      expect(fromUntrusted(storedJson(makeMessage()))).toBeInstanceOf(Message);
    });

    it("treats absent attachments as an empty list", () => {
      const { attachments: _attachments, ...json } = storedJson(makeMessage());
      expect(fromUntrusted(json).attachments).toEqual([]);
    });

    it("rejects a value with the wrong _type, naming the field", () => {
      const json = { ...storedJson(makeMessage()), _type: "chat:Message" };
      expect(() => fromUntrusted(json)).toThrow(ValidationError);
      expect(() => fromUntrusted(json)).toThrow(/_type/);
    });

    it("rejects a value without an id, naming the field", () => {
      const { id: _id, ...json } = storedJson(makeMessage());
      expect(() => fromUntrusted(json)).toThrow(ValidationError);
      expect(() => fromUntrusted(json)).toThrow(/\bid must be a string/);
    });

    it("rejects a dateSent that is not an ISO date, naming the field", () => {
      const json = storedJson(makeMessage());
      json.metadata = { dateSent: "yesterday", edited: false };
      expect(() => fromUntrusted(json)).toThrow(ValidationError);
      expect(() => fromUntrusted(json)).toThrow(/metadata\.dateSent/);
    });

    it("rejects an editedAt that is not an ISO date string, naming the field", () => {
      const json = storedJson(makeMessage());
      for (const editedAt of ["soon", null, 0]) {
        json.metadata = { dateSent: "2024-03-01T10:00:00.000Z", edited: true, editedAt };
        expect(() => fromUntrusted(json)).toThrow(/metadata\.editedAt/);
      }
    });

    it("rejects a value that is not an object", () => {
      for (const value of [null, "baton:Message", 42]) {
        expect(() => fromUntrusted(value)).toThrow(ValidationError);
      }
    });

    it("tags its errors with the step and the VALIDATION_FAILED code", () => {
      const error = (() => {
        try {
          fromUntrusted({ _type: "baton:Message" });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe("VALIDATION_FAILED");
      expect((error as ValidationError).message).toMatch(/^deserialize message: /);
    });
  });

  describe("toJSON/fromJSON round-trip", () => {
    it("should preserve all fields", () => {
      const original = makeMessage({
        text: "deploy please",
        author: { ...author, isBot: "unknown", email: "ada@example.test" },
        metadata: {
          dateSent: new Date("2024-03-01T10:00:00.000Z"),
          edited: true,
          editedAt: new Date("2024-03-01T10:05:00.000Z"),
        },
        attachments: [
          {
            type: "video",
            url: "https://files.test/v.mp4",
            name: "v.mp4",
            mimeType: "video/mp4",
            size: 1024,
            width: 640,
            height: 480,
            fetchMetadata: { fileId: "F9" },
          },
        ],
        isMention: true,
        raw: { ts: "1700000000.000100", blocks: [{ type: "rich_text" }] },
      });
      const restored = fromUntrusted(storedJson(original));
      expect(restored.id).toBe(original.id);
      expect(restored.threadId).toBe(original.threadId);
      expect(restored.text).toBe(original.text);
      expect(restored.author).toEqual(original.author);
      expect(restored.metadata).toEqual(original.metadata);
      expect(restored.attachments).toEqual(original.attachments);
      expect(restored.isMention).toBe(true);
      expect(restored.raw).toEqual(original.raw);
      expect(restored.toJSON()).toEqual(original.toJSON());
    });
  });
});
