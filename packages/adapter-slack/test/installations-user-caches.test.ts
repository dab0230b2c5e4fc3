/**
 * A multi-workspace app keeps what it learns about users per installation: each installation
 * sees Slack through its own token and scopes, so one workspace's answer (a name, an email it
 * may read) never serves another's. Ports upstream's "installation-scoped user caches".
 */
import { userCacheKey } from "@baton/core";
import { describe, expect, it } from "vitest";
import { userByNameKey } from "../src/name-index.js";
import {
  A,
  B,
  closeHarnessesAfterEach,
  install,
  mention,
  multi,
  tokensOf,
  tracked,
} from "./installs-fixtures.js";

closeHarnessesAfterEach();

const ALICE = { id: "U0ALICE001", name: "alice", realName: "Alice Example" };

/** A multi-workspace app with both workspaces installed and Alice known to the fake. */
async function installedForBoth() {
  const h = await multi();
  await h.adapter.setInstallation(A.teamId, install(A));
  await h.adapter.setInstallation(B.teamId, install(B));
  h.fake.addUser(ALICE);
  return h;
}

describe("installation-scoped user caches", () => {
  it("scopes the user profile cache by installation", async () => {
    const h = await installedForBoth();
    // The same person writes to the bot in both workspaces; each installation asks Slack itself.
    for (const workspace of [A, B]) {
      const event = mention(h, workspace, "C0SHARED01");
      (event.event as Record<string, unknown>).user = ALICE.id;
      await h.deliver(event);
      await h.settle();
    }

    expect(tokensOf(h, "users.info")).toEqual([A.botToken, B.botToken]);
    for (const team of [A.teamId, B.teamId]) {
      expect(await h.state.get(userCacheKey("slack", ALICE.id, team))).toMatchObject({
        status: "found",
      });
    }
    expect(await h.state.get(userCacheKey("slack", ALICE.id))).toBeNull();
  });

  it("uses unscoped keys without a request context (single-workspace)", async () => {
    const h = await tracked();
    h.fake.addUser(ALICE);
    await h.chat.getUser(ALICE.id);

    expect(await h.state.get(`user:slack:${ALICE.id}`)).toMatchObject({ status: "found" });
  });

  it("scopes the cache under withBotToken when installationId is passed", async () => {
    const h = await installedForBoth();
    await h.adapter.withBotToken(A.botToken, () => h.chat.getUser(ALICE.id), {
      installationId: A.teamId,
    });

    expect(tokensOf(h, "users.info")).toEqual([A.botToken]);
    expect(await h.state.get(`user:slack:${A.teamId}:${ALICE.id}`)).toMatchObject({
      status: "found",
    });
    expect(await h.state.get(`user:slack:${ALICE.id}`)).toBeNull();
  });

  it("uses unscoped keys under withBotToken without installationId", async () => {
    const h = await installedForBoth();
    await h.adapter.withBotToken(A.botToken, () => h.chat.getUser(ALICE.id));

    expect(await h.state.get(`user:slack:${ALICE.id}`)).toMatchObject({ status: "found" });
  });

  it("scopes the display-name reverse index by installation", async () => {
    const h = await installedForBoth();
    await h.adapter.withBotToken(A.botToken, () => h.chat.getUser(ALICE.id), {
      installationId: A.teamId,
    });

    expect(await h.state.get(userByNameKey(A.teamId, "alice"))).toEqual({ [ALICE.id]: true });
    expect(await h.state.get(userByNameKey(B.teamId, "alice"))).toBeNull();
    expect(await h.state.get(userByNameKey("", "alice"))).toBeNull();
  });

  it("resolves outgoing mentions from the installation-scoped index", async () => {
    const h = await installedForBoth();
    await h.state.mergeObject(userByNameKey(A.teamId, "alice"), { U0ALICEA01: true });
    await h.state.mergeObject(userByNameKey(B.teamId, "alice"), { U0ALICEB01: true });
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi @alice");
    });
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.deliver(mention(h, B, "C0BBB00001"));
    await h.settle();

    const posts = h.fake.callsOf("chat.postMessage").map((call) => [call.token, call.args.text]);
    expect(posts).toEqual([
      [A.botToken, "hi <@U0ALICEA01>"],
      [B.botToken, "hi <@U0ALICEB01>"],
    ]);
  });

  it("invalidates the scoped cache entry on user_change", async () => {
    const h = await installedForBoth();
    await h.adapter.withBotToken(A.botToken, () => h.chat.getUser(ALICE.id), {
      installationId: A.teamId,
    });
    await h.adapter.withBotToken(B.botToken, () => h.chat.getUser(ALICE.id), {
      installationId: B.teamId,
    });
    const keyA = userCacheKey("slack", ALICE.id, A.teamId);
    const keyB = userCacheKey("slack", ALICE.id, B.teamId);
    expect(await h.state.get(keyA)).not.toBeNull();

    const response = await h.deliver(
      h.envelope(
        {
          type: "user_change",
          event_ts: "1700000000.000900",
          user: { id: ALICE.id, name: "alice", real_name: "Alice Renamed" },
        },
        { team_id: A.teamId },
      ),
    );
    await h.settle();

    expect(response.status).toBe(200);
    expect(await h.state.get(keyA)).toBeNull();
    // Workspace B's delivery of the same change will clear B's entry; A's cannot.
    expect(await h.state.get(keyB)).not.toBeNull();
  });
});
