import { describe, expect, it } from "vitest";
import {
  matchesActionId,
  matchesCommand,
  matchesEmoji,
  normalizeCommand,
} from "../../src/routing/index.js";

const thumbsUp = { emoji: "thumbs_up", rawEmoji: "+1" };
const teamsLike = { emoji: "thumbs_up", rawEmoji: "like" };

describe("matchesEmoji", () => {
  it("selects every reaction when there is no filter or an empty one", () => {
    expect(matchesEmoji(undefined, thumbsUp)).toBe(true);
    expect(matchesEmoji([], thumbsUp)).toBe(true);
  });

  it("selects a reaction by its normalized name, whatever the platform spelled", () => {
    expect(matchesEmoji("thumbs_up", thumbsUp)).toBe(true);
    expect(matchesEmoji(["thumbs_up", "heart"], teamsLike)).toBe(true);
  });

  it("should match by rawEmoji when specified in filter", () => {
    expect(matchesEmoji(["+1"], thumbsUp)).toBe(true);
    expect(matchesEmoji("like", teamsLike)).toBe(true);
  });

  it("rejects a reaction that no filter value names", () => {
    expect(matchesEmoji(["heart", "fire"], thumbsUp)).toBe(false);
    expect(matchesEmoji("+1", teamsLike)).toBe(false);
  });

  it("compares emoji names exactly", () => {
    expect(matchesEmoji("Thumbs_Up", thumbsUp)).toBe(false);
    expect(matchesEmoji("thumbs", thumbsUp)).toBe(false);
  });
});

describe("matchesActionId", () => {
  it("selects every action when there is no filter or an empty one", () => {
    expect(matchesActionId(undefined, "approve")).toBe(true);
    expect(matchesActionId([], "approve")).toBe(true);
  });

  it("selects an action whose id one filter value equals", () => {
    expect(matchesActionId("approve", "approve")).toBe(true);
    expect(matchesActionId(["approve", "reject"], "reject")).toBe(true);
  });

  it("rejects any other id, including one that differs only in case or length", () => {
    expect(matchesActionId(["approve", "reject"], "cancel")).toBe(false);
    expect(matchesActionId("approve", "Approve")).toBe(false);
    expect(matchesActionId("approve", "approve-all")).toBe(false);
  });
});

describe("normalizeCommand", () => {
  it("adds the leading slash a bare name lacks and keeps one that is there", () => {
    expect(normalizeCommand("help")).toBe("/help");
    expect(normalizeCommand("/help")).toBe("/help");
  });

  it("trims surrounding whitespace and lower-cases the name", () => {
    expect(normalizeCommand("  Deploy ")).toBe("/deploy");
    expect(normalizeCommand(" /STATUS\n")).toBe("/status");
  });

  it("is idempotent", () => {
    for (const name of ["help", " /Help ", "/x-y_z", ""]) {
      expect(normalizeCommand(normalizeCommand(name))).toBe(normalizeCommand(name));
    }
  });

  it("turns an empty name into the bare slash", () => {
    expect(normalizeCommand("   ")).toBe("/");
  });
});

describe("matchesCommand", () => {
  it("selects every command when there is no filter or an empty one", () => {
    expect(matchesCommand(undefined, "/help")).toBe(true);
    expect(matchesCommand([], "/help")).toBe(true);
  });

  it("should normalize command names without leading slash", () => {
    expect(matchesCommand("help", "/help")).toBe(true);
  });

  it("selects a command that any of several filter values names", () => {
    expect(matchesCommand(["/status", "/deploy"], "/deploy")).toBe(true);
  });

  it("compares both sides in normalized form", () => {
    expect(matchesCommand("/Deploy ", "/deploy")).toBe(true);
    expect(matchesCommand("deploy", " /DEPLOY")).toBe(true);
  });

  it("rejects a different command, including one that merely starts the same", () => {
    expect(matchesCommand(["/status", "/deploy"], "/help")).toBe(false);
    expect(matchesCommand("/deploy", "/deploy-prod")).toBe(false);
  });
});
