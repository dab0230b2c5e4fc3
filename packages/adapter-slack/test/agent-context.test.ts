import { describe, expect, it } from "vitest";
import { getAppContext, normalizeAppContextEntities } from "../src/index.js";

const T = "slack#/types/";

describe("normalizeAppContextEntities", () => {
  it("returns [] for an empty context object", () => {
    expect(normalizeAppContextEntities({})).toEqual([]);
  });

  it("returns [] for a missing context", () => {
    expect(normalizeAppContextEntities(undefined)).toEqual([]);
  });

  it("maps channel_id", () => {
    expect(
      normalizeAppContextEntities({ entities: [{ type: `${T}channel_id`, value: "C1" }] }),
    ).toEqual([{ kind: "channel", channelId: "C1", teamId: undefined, enterpriseId: undefined }]);
  });

  it("maps canvas_id and list_id", () => {
    const entities = normalizeAppContextEntities({
      entities: [
        { type: `${T}canvas_id`, value: "F1" },
        { type: `${T}list_id`, value: "F2" },
      ],
    });
    expect(entities).toMatchObject([
      { kind: "canvas", canvasId: "F1" },
      { kind: "list", listId: "F2" },
    ]);
  });

  it("maps message_context", () => {
    const [entity] = normalizeAppContextEntities({
      entities: [{ type: `${T}message_context`, value: { message_ts: "1.2", channel_id: "C1" } }],
    });
    expect(entity).toMatchObject({ kind: "message", messageTs: "1.2", channelId: "C1" });
  });

  it("maps unrecognized tokens to kind unknown", () => {
    const [entity] = normalizeAppContextEntities({
      entities: [{ type: `${T}future_thing`, value: { x: 1 } }],
    });
    expect(entity).toMatchObject({ kind: "unknown", type: `${T}future_thing`, value: { x: 1 } });
  });

  it("maps a message_context with a malformed value to kind unknown instead of throwing", () => {
    const entities = normalizeAppContextEntities({
      entities: [
        { type: `${T}message_context`, value: null },
        { type: `${T}message_context`, value: { message_ts: 5 } },
      ],
    });
    expect(entities.map((entity) => entity.kind)).toEqual(["unknown", "unknown"]);
  });

  it("preserves team_id/enterprise_id and relevance order", () => {
    const entities = normalizeAppContextEntities({
      entities: [
        { type: `${T}list_id`, value: "F2", team_id: "T1", enterprise_id: "E1" },
        { type: `${T}channel_id`, value: "C1", team_id: "T2" },
      ],
    });
    expect(entities).toEqual([
      { kind: "list", listId: "F2", teamId: "T1", enterpriseId: "E1" },
      { kind: "channel", channelId: "C1", teamId: "T2", enterpriseId: undefined },
    ]);
  });
});

describe("getAppContext", () => {
  it("reads and normalizes folded app_context from message.raw", () => {
    const message = {
      raw: {
        type: "message",
        app_context: { entities: [{ type: `${T}channel_id`, value: "C9" }] },
      },
    };
    expect(getAppContext(message)).toMatchObject([{ kind: "channel", channelId: "C9" }]);
  });

  it("returns [] when the message has no folded app_context", () => {
    expect(getAppContext({ raw: { type: "message", text: "hi" } })).toEqual([]);
    expect(getAppContext({})).toEqual([]);
  });
});
