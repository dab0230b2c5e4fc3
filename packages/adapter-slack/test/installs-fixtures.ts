/** Shared fixtures of the Slack multi-workspace install tests (split by topic across files). */
import type { WebClient } from "@slack/web-api";
import { afterEach } from "vitest";
import type { SlackAdapterConfig, SlackInstallation } from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

export const A: FakeSlackWorkspace = {
  teamId: "T0AAAAAAA1",
  botToken: "xoxb-team-a",
  botUserId: "U0BOTA0001",
};
export const B: FakeSlackWorkspace = {
  teamId: "T0BBBBBBB1",
  botToken: "xoxb-team-b",
  botUserId: "U0BOTB0001",
};
export const CLIENT = { clientId: "fake-client-id", clientSecret: "fake-client-secret" };

/** Every harness a test opened; closed by {@link closeHarnesses}. */
export const harnesses: SlackHarness[] = [];
/** Closes every harness `multi` opened; each test file runs it in its afterEach. */
export async function closeHarnesses(): Promise<void> {
  for (const harness of harnesses.splice(0)) await harness.close();
}

/**
 * Closes the harnesses of each test after it ends; call once at the top of an installs test file.
 */
export function closeHarnessesAfterEach(): void {
  afterEach(closeHarnesses);
}

/** A harness opened with `createSlackHarness`'s arguments, closed by {@link closeHarnesses}. */
export async function tracked(
  ...args: Parameters<typeof createSlackHarness>
): Promise<SlackHarness> {
  const h = await createSlackHarness(...args);
  harnesses.push(h);
  return h;
}

/** A multi-workspace app (no botToken) against the fake, which knows workspaces A and B. */
export async function multi(config: Partial<SlackAdapterConfig> = {}) {
  const h = await tracked({ botToken: undefined, ...CLIENT, ...config });
  h.fake.addWorkspace(A);
  h.fake.addWorkspace(B);
  return h;
}

export function install(workspace: FakeSlackWorkspace): SlackInstallation {
  return { botToken: workspace.botToken, botUserId: workspace.botUserId as string };
}

let tsCount = 0;
/** An app_mention of the bot in `channel`, delivered for `workspace`. */
export function mention(
  h: SlackHarness,
  workspace: FakeSlackWorkspace,
  channel: string,
  extra: Record<string, unknown> = {},
) {
  tsCount += 1;
  const ts = `1700000000.${String(tsCount).padStart(6, "0")}`;
  return h.envelope(
    {
      type: "app_mention",
      user: "U0HUMAN001",
      text: `<@${workspace.botUserId}> hello`,
      ts,
      channel,
      team: workspace.teamId,
    },
    { team_id: workspace.teamId, ...extra },
  );
}

export function tokensOf(h: SlackHarness, method: string): Array<string | undefined> {
  return h.fake.callsOf(method).map((call) => call.token);
}

/** The token of the WebClient `adapter.client` hands out here. */
export function clientToken(h: SlackHarness): string | undefined {
  return (h.adapter.client as WebClient).token;
}

export function callback(query: string): Request {
  return new Request(`https://bot.example/slack/oauth/callback?${query}`);
}

export const ORG: FakeSlackWorkspace = {
  teamId: "T0GRID0001",
  botToken: "xoxb-org-wide",
  botUserId: "U0BOTORG01",
  enterpriseId: "E0ORG00001",
  isEnterpriseInstall: true,
};
