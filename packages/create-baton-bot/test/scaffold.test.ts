import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs, ScaffoldError, scaffold } from "../src/index.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const created = mkdtempSync(join(tmpdir(), "create-baton-bot-"));
  folders.push(created);
  return created;
}

describe("scaffold", () => {
  it("writes a project for the chosen platforms and State, and names the next two commands", () => {
    const directory = join(folder(), "support-bot");

    const result = scaffold({
      directory,
      platforms: ["web", "twilio"],
      state: "redis",
      packageManager: "pnpm",
      batonVersion: "^0.3.0",
    });

    expect([...result.files].sort()).toEqual([
      ".env.example",
      ".gitignore",
      "README.md",
      "package.json",
      "src/bot.ts",
      "src/server.ts",
      "test/bot.test.ts",
      "tsconfig.json",
    ]);
    expect(result.nextCommands).toEqual([`cd ${directory}`, "pnpm install && pnpm test"]);
    const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8"));
    expect(manifest.name).toBe("support-bot");
    expect(manifest.dependencies).toEqual({
      "@baton/adapter-twilio": "^0.3.0",
      "@baton/adapter-web": "^0.3.0",
      "@baton/core": "^0.3.0",
      "@baton/state-redis": "^0.3.0",
    });
    const env = readFileSync(join(directory, ".env.example"), "utf8");
    for (const name of [
      "REDIS_URL",
      "TWILIO_ACCOUNT_SID",
      "TWILIO_AUTH_TOKEN",
      "TWILIO_WEBHOOK_URL",
    ]) {
      expect(env).toContain(`${name}=`);
    }
    const bot = readFileSync(join(directory, "src/bot.ts"), "utf8");
    expect(bot).toContain('import { createTwilioAdapter } from "@baton/adapter-twilio";');
    expect(bot).toContain("createRedisState({ url: process.env.REDIS_URL");
    const test = readFileSync(join(directory, "test/bot.test.ts"), "utf8");
    expect(test).toContain("startFakeTwilio");
    expect(test).toContain('test("answers a web chat message"');
  });

  it("refuses a non-empty folder unless told to, writing nothing", () => {
    const directory = folder();
    writeFileSync(join(directory, "notes.txt"), "mine");
    const options = { directory, platforms: ["web"], state: "memory", packageManager: "npm" };

    expect(() => scaffold(options)).toThrow(/is not empty.*--force/);
    expect(() => readFileSync(join(directory, "package.json"))).toThrow();

    scaffold({ ...options, force: true });
    expect(readFileSync(join(directory, "notes.txt"), "utf8")).toBe("mine");
    expect(JSON.parse(readFileSync(join(directory, "package.json"), "utf8")).dependencies).toEqual({
      "@baton/adapter-web": "latest",
      "@baton/core": "latest",
      "@baton/state-memory": "latest",
    });
  });

  it("names the unknown platform, State or package manager", () => {
    const directory = join(folder(), "bot");
    const base = { directory, platforms: ["web"], state: "memory", packageManager: "npm" };

    expect(() => scaffold({ ...base, platforms: ["fax"] })).toThrow(
      new ScaffoldError('unknown platform "fax"; one of web, slack, teams, twilio, telegram'),
    );
    expect(() => scaffold({ ...base, state: "mongo" })).toThrow(/unknown State backend "mongo"/);
    expect(() => scaffold({ ...base, packageManager: "bun" })).toThrow(/unknown package manager/);
    expect(() => scaffold({ ...base, platforms: [] })).toThrow(/at least one platform/);
  });
});

describe("parseCliArgs", () => {
  it("reads the folder and every flag, in both spellings", () => {
    expect(
      parseCliArgs(["bot", "--platform", "web,twilio", "--state=redis", "--pm", "npm", "--yes"]),
    ).toEqual({
      directory: "bot",
      platforms: ["web", "twilio"],
      state: "redis",
      packageManager: "npm",
      yes: true,
      force: false,
      batonVersion: undefined,
      help: false,
    });
  });

  it("refuses an unknown flag, a flag without its value, and two folders", () => {
    expect(() => parseCliArgs(["--colour"])).toThrow(/unknown option --colour/);
    expect(() => parseCliArgs(["--state"])).toThrow(/--state needs a value/);
    expect(() => parseCliArgs(["--state", "--yes"])).toThrow(/--state needs a value/);
    expect(() => parseCliArgs(["a", "b"])).toThrow(/one folder only/);
  });
});
