import { describe, expect, it } from "vitest";
import { DEFAULT_OPENAI_MODEL, modelFromEnv } from "../src/model-from-env.js";

/** A logger keeping its warnings. */
function warnings() {
  const lines: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (message: string) => lines.push(message),
    error() {},
    child: () => logger,
  };
  return { logger, lines };
}

/** The provider and model id of an AI SDK V3 model (a string id is not used here). */
function identity(model: unknown) {
  const { provider, modelId, specificationVersion } = model as Record<string, string>;
  return { provider, modelId, specificationVersion };
}

describe("modelFromEnv", () => {
  it("uses the local model without OPENAI_API_KEY", () => {
    const chosen = modelFromEnv({}, warnings().logger);
    expect(chosen.kind).toBe("local");
    expect(identity(chosen.model)).toMatchObject({
      provider: "baton-local",
      modelId: "canned-agent",
    });
  });

  it("treats a blank key as none, and warns that OPENAI_MODEL alone does nothing", () => {
    const { logger, lines } = warnings();
    const chosen = modelFromEnv({ OPENAI_API_KEY: "  ", OPENAI_MODEL: "gpt-4.1" }, logger);
    expect(chosen.kind).toBe("local");
    expect(lines).toEqual(["OPENAI_MODEL is set without OPENAI_API_KEY: using the local model"]);
  });

  it("uses OpenAI's default model through @ai-sdk/openai when OPENAI_API_KEY is set, without a request", () => {
    const chosen = modelFromEnv({ OPENAI_API_KEY: "sk-test" }, warnings().logger);
    expect(chosen.kind).toBe("openai");
    expect(identity(chosen.model)).toEqual({
      provider: "openai.responses",
      modelId: DEFAULT_OPENAI_MODEL,
      specificationVersion: "v3",
    });
    expect(chosen.description).toBe(`OpenAI ${DEFAULT_OPENAI_MODEL}`);
    expect(chosen.description).not.toContain("sk-test");
  });

  it("takes the model id from OPENAI_MODEL and the endpoint from OPENAI_BASE_URL", () => {
    const chosen = modelFromEnv(
      {
        OPENAI_API_KEY: "sk-test",
        OPENAI_MODEL: "gpt-4.1-mini",
        OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      },
      warnings().logger,
    );
    expect(identity(chosen.model)).toMatchObject({ modelId: "gpt-4.1-mini" });
    expect(chosen.description).toBe("OpenAI gpt-4.1-mini at http://127.0.0.1:9/v1");
  });
});
