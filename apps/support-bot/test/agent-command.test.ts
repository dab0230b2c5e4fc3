import { describe, expect, it } from "vitest";
import { parseAgentCommand } from "../src/agent-command.js";

describe("parseAgentCommand", () => {
  it("reads each subcommand, with or without a conversation id", () => {
    expect(parseAgentCommand("/agent take")).toEqual({ name: "take" });
    expect(parseAgentCommand("  /agent TAKE web:alice:dm ")).toEqual({
      name: "take",
      target: "web:alice:dm",
    });
    expect(parseAgentCommand("/agent release web:alice:dm")).toEqual({
      name: "release",
      target: "web:alice:dm",
    });
    expect(parseAgentCommand("/agent extend")).toEqual({ name: "extend" });
    expect(parseAgentCommand("/agent show web:alice:dm")).toEqual({
      name: "show",
      target: "web:alice:dm",
    });
  });

  it("keeps the text of /agent say as typed, line breaks included", () => {
    expect(
      parseAgentCommand("/agent say web:alice:dm Hi Alice,\n  refund is on its way. "),
    ).toEqual({ name: "say", target: "web:alice:dm", text: "Hi Alice,\n  refund is on its way." });
  });

  it("accepts a leading mention, where the bot only hears mentions", () => {
    expect(parseAgentCommand("@support /agent take")).toEqual({ name: "take" });
  });

  it("answers a bare, unknown or malformed command with help", () => {
    for (const text of [
      "/agent",
      "/agent help",
      "/agent dance",
      "/agent take a b",
      "/agent say x",
    ]) {
      expect(parseAgentCommand(text)).toEqual({ name: "help" });
    }
  });

  it("leaves ordinary text alone, including look-alikes", () => {
    for (const text of ["hello", "/agents", "/agentx take", "please /agent take", "@support hi"]) {
      expect(parseAgentCommand(text)).toBeUndefined();
    }
  });
});
