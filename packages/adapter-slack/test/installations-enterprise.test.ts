/**
 * Calls made for an Enterprise Grid org say where they are meant: an org-wide token names the
 * delivery's workspace (`team_id`), and a channel seen from another workspace gets that
 * workspace echoed (`client_context_team_id`). Ports upstream's "withToken enterprise context
 * injection" through real deliveries against the fake Slack, and the rule itself directly.
 */
import { describe, expect, it } from "vitest";
import { withEnterpriseContext } from "../src/enterprise-context.js";
import { eventContextOf, installationOf } from "../src/installation-routing.js";
import { parseSlackWebhookBody } from "../src/parse.js";
import { A, closeHarnessesAfterEach, install, mention, multi, ORG } from "./installs-fixtures.js";

closeHarnessesAfterEach();

const ORG_ID = ORG.enterpriseId as string;
const AWAY_HOST = "T0AWAYHOST";

/** A multi-workspace app installed org-wide in ORG and per workspace in A. */
async function gridApp() {
  const h = await multi();
  h.fake.addWorkspace(ORG);
  await h.adapter.setInstallation(ORG_ID, install(ORG));
  await h.adapter.setInstallation(A.teamId, install(A));
  return h;
}

/** A mention in the org-wide install, delivered for ORG's workspace, as Slack names it. */
function orgMention(h: Awaited<ReturnType<typeof gridApp>>, channel: string) {
  return mention(h, ORG, channel, {
    enterprise_id: ORG_ID,
    is_enterprise_install: true,
    authorizations: [{ enterprise_id: ORG_ID, team_id: ORG.teamId, is_enterprise_install: true }],
  });
}

function argsOf(h: Awaited<ReturnType<typeof gridApp>>, method: string) {
  return h.fake.callsOf(method).map((call) => call.args);
}

describe("withToken enterprise context injection", () => {
  it("injects team_id on org-wide install calls", async () => {
    const h = await gridApp();
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi org");
    });
    await h.deliver(orgMention(h, "C0GRID0001"));
    await h.settle();

    const [post] = argsOf(h, "chat.postMessage");
    expect(post).toMatchObject({ channel: "C0GRID0001", team_id: ORG.teamId });
    expect(h.fake.callsOf("chat.postMessage")[0]?.token).toBe(ORG.botToken);
  });

  it("does not inject team_id for workspace installs", async () => {
    const h = await gridApp();
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi A");
    });
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();

    const [post] = argsOf(h, "chat.postMessage");
    expect(post?.channel).toBe("C0AAA00001");
    expect(post).not.toHaveProperty("team_id");
  });

  it("does not override a caller-specified team_id", () => {
    const context = { token: "xoxb-org", isEnterpriseInstall: true, teamId: "T_EVENT_1" };
    expect(withEnterpriseContext({ channel: "C1" }, context)).toEqual({
      channel: "C1",
      team_id: "T_EVENT_1",
    });
    expect(withEnterpriseContext({ channel: "C1", team_id: "T_EXPLICIT" }, context)).toEqual({
      channel: "C1",
      team_id: "T_EXPLICIT",
    });
  });

  it("echoes context_team_id as client_context_team_id on calls to the originating channel", async () => {
    const h = await gridApp();
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi from the host's view");
    });
    await h.deliver(mention(h, A, "C0SHARED01", { context_team_id: AWAY_HOST }));
    await h.settle();

    expect(argsOf(h, "chat.postMessage")[0]).toMatchObject({
      channel: "C0SHARED01",
      client_context_team_id: AWAY_HOST,
    });
  });

  it("does not echo client_context_team_id to a different channel", async () => {
    const h = await gridApp();
    h.chat.onNewMention(async () => {
      await h.chat.channel("slack:C0OTHER001").post("elsewhere");
    });
    await h.deliver(mention(h, A, "C0SHARED01", { context_team_id: AWAY_HOST }));
    await h.settle();

    const [post] = argsOf(h, "chat.postMessage");
    expect(post?.channel).toBe("C0OTHER001");
    expect(post).not.toHaveProperty("client_context_team_id");
  });

  it("does not add client_context_team_id to non-channel calls", async () => {
    const h = await gridApp();
    h.fake.addUser({ id: "U0LOOKUP01", name: "lookup" });
    h.chat.onNewMention(async () => {
      await h.chat.getUser("U0LOOKUP01");
    });
    await h.deliver(mention(h, A, "C0SHARED01", { context_team_id: AWAY_HOST }));
    await h.settle();

    const lookups = argsOf(h, "users.info").filter((args) => args.user === "U0LOOKUP01");
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).not.toHaveProperty("client_context_team_id");
  });

  it("captures teamId and contextTeamId in the event request context", () => {
    const payload = parseSlackWebhookBody(
      JSON.stringify({
        type: "event_callback",
        team_id: "T_GRID_1",
        enterprise_id: "E_ORG_1",
        is_enterprise_install: true,
        context_team_id: "T_AWAY_HOST",
        event: { type: "message", channel: "C1", ts: "1.1" },
      }),
      "application/json",
    );

    expect(installationOf(payload)).toEqual({
      installationId: "E_ORG_1",
      isEnterpriseInstall: true,
      teamId: "T_GRID_1",
    });
    expect(eventContextOf(payload, "T_GRID_1")).toEqual({
      contextTeamId: "T_AWAY_HOST",
      contextChannel: "C1",
    });
  });

  it("does not echo client_context_team_id when the channel is seen from the delivery's own workspace", () => {
    const payload = parseSlackWebhookBody(
      JSON.stringify({
        type: "event_callback",
        team_id: "T1",
        context_team_id: "T1",
        event: { type: "message", channel: "C1", ts: "1.1" },
      }),
      "application/json",
    );
    expect(eventContextOf(payload, "T1")).toEqual({});
    expect(withEnterpriseContext({ channel: "C1" }, { token: "xoxb-1", teamId: "T1" })).toEqual({
      channel: "C1",
    });
  });
});
