import { ValidationError } from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  splitTwilioBody,
  TWILIO_MESSAGE_LIMIT,
  TwilioFormatConverter,
  truncateTwilioBody,
} from "../src/index.js";

describe("Twilio format helpers", () => {
  it("keeps text within the Twilio message limit", () => {
    const text = "a".repeat(TWILIO_MESSAGE_LIMIT);

    expect(truncateTwilioBody(text)).toBe(text);
    expect(splitTwilioBody(text)).toEqual([text]);
  });

  it("truncates text over the Twilio message limit", () => {
    const truncated = truncateTwilioBody("a".repeat(TWILIO_MESSAGE_LIMIT + 5));

    expect([...truncated].length).toBe(TWILIO_MESSAGE_LIMIT);
    expect(truncated.endsWith("…")).toBe(true);
  });

  it("rejects invalid limits", () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      expect(() => truncateTwilioBody("text", limit)).toThrow(ValidationError);
      expect(() => splitTwilioBody("text", limit)).toThrow(ValidationError);
    }
  });

  it("splits at a paragraph, then a line, then a space, never inside an emoji", () => {
    expect(splitTwilioBody("one two\n\nthree four", 12)).toEqual(["one two", "three four"]);
    expect(splitTwilioBody("one two\nthree four", 12)).toEqual(["one two", "three four"]);
    expect(splitTwilioBody("one two three four", 12)).toEqual(["one two", "three four"]);
    const emoji = "😀".repeat(5);
    expect(splitTwilioBody(emoji, 2)).toEqual(["😀😀", "😀😀", "😀"]);
  });
});

describe("TwilioFormatConverter", () => {
  it("keeps raw strings plain", () => {
    const converter = new TwilioFormatConverter("sms");

    expect(converter.renderPostable("**not parsed** _as markdown_")).toBe(
      "**not parsed** _as markdown_",
    );
    expect(converter.renderPostable({ raw: "*kept* as typed" })).toBe("*kept* as typed");
  });

  it("converts markdown to Twilio text", () => {
    const sms = new TwilioFormatConverter("sms");
    const whatsapp = new TwilioFormatConverter("whatsapp");
    const markdown = "# Update\n\n**Bold**, _italic_ and ~~old~~ with [a link](https://x.example)";

    expect(sms.fromMarkdown(markdown)).toBe(
      "Update\n\nBold, italic and old with a link (https://x.example)",
    );
    expect(whatsapp.fromMarkdown(markdown)).toBe(
      "*Update*\n\n*Bold*, _italic_ and ~old~ with a link (https://x.example)",
    );
  });

  it("renders tables as ascii blocks", () => {
    const text = new TwilioFormatConverter("sms").fromMarkdown(
      "| Item | Qty |\n| --- | --- |\n| Apples | 3 |\n| Kiwis | 12 |",
    );

    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^Item\s+\|\s*Qty$/);
    expect(lines.some((line) => /^-+[-+|\s]*-+$/.test(line))).toBe(true);
    expect(lines.some((line) => /^Apples\s+\|\s*3$/.test(line))).toBe(true);
    expect(lines.some((line) => /^Kiwis\s+\|\s*12$/.test(line))).toBe(true);
  });
});
