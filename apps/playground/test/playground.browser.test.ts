import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Playground, startPlayground } from "../src/server.js";

const CHROMIUM = "/usr/bin/chromium";
const RESULTS_DIR = fileURLToPath(new URL("../test-results/", import.meta.url));
// Real time is unavoidable in a browser: the handler really takes 2 s. The assertions are about
// order and what is shown, with generous deadlines, never about speed.
const HANDLER_SECONDS = 2;
const ANSWER_TIMEOUT_MS = 30_000;
// The agent's local model pauses this long before each of its ~50 words: an answer takes about
// 12 s, so the page sees it grow, and a Stop clicked once it has started lands well before its end.
const AGENT_CHUNK_DELAY_MS = 250;

describe("the playground in a browser", () => {
  let playground: Playground | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // A missing browser fails the run: a skipped browser test would pass CI while proving nothing.
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing at ${CHROMIUM}; install it with "apt-get install -y chromium" (.ci/run does)`,
      );
    }
    playground = await startPlayground({
      port: 0,
      logger: "silent",
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  it("answers three quick messages under queue in their thread, with the skipped count, one run at a time", async () => {
    const page = await browser!.newPage({ viewport: { width: 1440, height: 1100 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(playground!.url);
    await page.locator('#connection[data-state="online"]').waitFor();
    await expect(page.locator('.pane[data-thread-name="general"] .messages')).toBeTruthy();
    expect(await page.locator('.pane[data-thread-name="general"] .empty').textContent()).toBe(
      "No messages yet — say hi",
    );

    await page.selectOption("#strategy", "queue");
    await page.locator('#settings-status[data-state="applied"][data-strategy="queue"]').waitFor();
    await page.fill("#handler-seconds", String(HANDLER_SECONDS));
    await page.locator("#handler-seconds").blur();
    await page
      .locator(`#settings-status[data-state="applied"][data-handler-seconds="${HANDLER_SECONDS}"]`)
      .waitFor();

    const general = page.locator('.pane[data-thread-name="general"]');
    const threadId = await general.getAttribute("data-thread-id");
    expect(threadId).toMatch(/^web:guest-[a-z0-9]{6}:general$/);
    const input = general.locator("input");
    for (const text of ["@baton one", "@baton two", "@baton three"]) {
      await input.fill(text);
      await input.press("Enter");
    }

    const answers = general.locator('.msg[data-author="bot"] .text');
    await expect.poll(() => answers.count(), { timeout: ANSWER_TIMEOUT_MS }).toBe(2);
    const [first, second] = await answers.allTextContents();
    expect(first).toContain("Got 1 message at once");
    expect(first).toContain("“@baton one”");
    expect(second).toContain("Got 2 messages at once");
    expect(second).toContain("Answering “@baton three”");
    expect(second).toContain("also read “@baton two”");
    // The answers went to this thread only.
    expect(await page.locator('.pane[data-thread-name="dm"] .msg').count()).toBe(0);
    // The user's own messages show how each delivery ended.
    const userStatuses = await general
      .locator('.msg[data-author="user"] .status')
      .allTextContents();
    await expect
      .poll(() => general.locator('.msg[data-author="user"] .status').allTextContents())
      .toEqual(["answered", "read together with a later message", "answered"]);
    expect(userStatuses.length).toBeGreaterThan(0);

    const runs = await closedRuns(page, `thread:${threadId}`);
    expect(runs).toHaveLength(2);
    for (let i = 1; i < runs.length; i += 1) {
      const [previous, next] = [runs[i - 1]!, runs[i]!];
      expect(next.startMs, "a run started before the previous one ended").toBeGreaterThanOrEqual(
        previous.endMs,
      );
    }
    expect(runs.map((run) => run.skipped)).toEqual([0, 1]);
    const ids = await general
      .locator('.msg[data-author="user"]')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.messageId));
    const skippedRow = page.locator(`.tl-row[data-delivery-key="web:${ids[1]}"]`);
    expect(await skippedRow.getAttribute("data-skipped-into")).toBe(`web:${ids[2]}`);
    expect(await skippedRow.locator(".tl-outcome").textContent()).toBe(
      "skipped into “@baton three”",
    );

    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}playground.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 90_000);
});

describe("the agent bot in the playground, in a browser", () => {
  let playground: Playground | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing at ${CHROMIUM}; install it with "apt-get install -y chromium"`,
      );
    }
    playground = await startPlayground({
      port: 0,
      logger: "silent",
      agentChunkDelayMs: AGENT_CHUNK_DELAY_MS,
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  it("streams the agent's answer into its pane, growing until it is done, and stops the next one mid-answer", async () => {
    const page = await browser!.newPage({ viewport: { width: 1440, height: 1400 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(playground!.url);
    await page.locator('#connection[data-state="online"]').waitFor();
    const pane = page.locator('.pane[data-bot="agent"]');
    await page.locator('.pane[data-bot="agent"][data-thread-id]').waitFor();
    expect(await pane.getAttribute("data-thread-id")).toMatch(/^web:guest-[a-z0-9]{6}:dm$/);
    // Every text each answer showed, in order: the page re-renders on each event, so a streamed
    // answer leaves a trail of growing texts.
    await pane.evaluate((root) => {
      const seen: Record<string, string[]> = {};
      (window as unknown as { agentTexts: typeof seen }).agentTexts = seen;
      const record = () => {
        // Array.from: the tsconfig's DOM lib has no iterable NodeList.
        for (const item of Array.from(
          root.querySelectorAll<HTMLElement>('.msg[data-kind="answer"]'),
        )) {
          const id = item.dataset.messageId ?? "";
          const text = item.querySelector(".text")?.textContent ?? "";
          const texts = (seen[id] ??= []);
          if (texts.at(-1) !== text) texts.push(text);
        }
      };
      new MutationObserver(record).observe(root, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    const trails = () =>
      page.evaluate(() =>
        Object.values((window as unknown as { agentTexts: Record<string, string[]> }).agentTexts),
      );
    const input = pane.locator("input");

    await input.fill("what is Baton?");
    await input.press("Enter");
    await pane.locator('.msg[data-notice="answered"]').waitFor({ timeout: 60_000 });
    const [trail] = await trails();
    expect(trail!.length, "the answer never showed a partial text").toBeGreaterThanOrEqual(2);
    for (let i = 1; i < trail!.length; i += 1) {
      expect(trail![i]!.startsWith(trail![i - 1]!)).toBe(true);
    }
    expect(trail!.at(-1)).toMatch(
      /^I read the last [1-9]\d* messages of this conversation\. You asked: "what is Baton\?"\..*deterministic/s,
    );
    expect(await pane.locator(".stop").isDisabled()).toBe(true);

    await input.fill("tell me everything");
    await input.press("Enter");
    await expect
      .poll(async () => (await trails())[1]?.at(-1) ?? "", { timeout: 60_000 })
      .toMatch(/^I read the last/);
    await pane.locator(".pane-head .stop:not([disabled])").click();
    await pane.locator('.msg[data-notice="stopped"]').waitFor({ timeout: 60_000 });
    const stopped = (await pane.locator('.msg[data-kind="answer"] .text').allTextContents())[1];
    expect(stopped).toMatch(/^I read the last/);
    expect(stopped).not.toMatch(/deterministic/);
    expect(await pane.locator('.msg[data-kind="question"] .text').allTextContents()).toEqual([
      "what is Baton?",
      "tell me everything",
    ]);

    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}playground-agent.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

describe("two instances of the demo bot, in a browser", () => {
  let playground: Playground | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing at ${CHROMIUM}; install it with "apt-get install -y chromium"`,
      );
    }
    // The demo's own lease and sweep (3 s, 1 s), as the page says: a recovery takes at most 4 s.
    playground = await startPlayground({
      port: 0,
      logger: "silent",
      settings: { strategy: "queue" },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  }, 30_000);

  it("kills instance A mid-answer with its button and shows B's recovered run, attempt 2, on the timeline", async () => {
    const page = await browser!.newPage({ viewport: { width: 1440, height: 1300 } });
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(playground!.url);
    await page.locator('#connection[data-state="online"]').waitFor();
    const cardA = page.locator('.instance[data-instance="A"]');
    await page.locator('.instance[data-instance="B"][data-status="running"]').waitFor();
    await expect.poll(() => cardA.getAttribute("data-status")).toBe("running");
    expect(await page.locator("#instances-help").textContent()).toContain("lockTtlMs = 3 s");

    await page.selectOption("#deliver-to", "A");
    await expect.poll(() => playground!.runtime.view.deliverTo).toBe("A");
    await setHandlerSeconds(page, 60);
    const general = page.locator('.pane[data-thread-name="general"]');
    await general.locator("input").fill("@baton are you there?");
    await general.locator("input").press("Enter");

    // A is answering: its run bar is open, and its card says so.
    const runA = page.locator('.tl-run[data-instance="A"][data-attempt="1"]');
    await runA.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    expect(await runA.getAttribute("data-end-ms")).toBe("");
    await expect
      .poll(() => cardA.locator(".doing").textContent())
      .toBe("answering “@baton are you there?”");
    // The recovered run reads the handler time anew: B answers after a second.
    await setHandlerSeconds(page, 1);
    // Not needed for what is checked: it only gives A's bar room for its label in the picture.
    await page.waitForTimeout(1_500);

    await cardA.locator("button.kill").click();
    await page.locator('.instance[data-instance="A"][data-status="killed"]').waitFor();
    // A's run is cut off where A died; the turn waits for its lease to lapse.
    await page.locator('.tl-run[data-instance="A"][data-cut="killed"]').waitFor();
    expect(await runA.getAttribute("data-end-ms")).not.toBe("");
    await page.locator(".tl-marker.killed").waitFor();

    const recovered = page.locator(
      '.tl-run[data-instance="B"][data-attempt="2"][data-interrupted-reason="lease-expired"]',
    );
    await recovered.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    const answer = general.locator('.msg[data-author="bot"] .text');
    await answer.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    expect(await answer.textContent()).toMatch(
      /^I was interrupted — here is my answer again \(attempt 2: .*\)\. Got 1 message at once\. Answering “@baton are you there\?”\. \(Thought for 1 s on instance B\.\)$/,
    );
    const row = page.locator(".tl-row", { has: recovered });
    await expect
      .poll(() => row.locator(".tl-outcome").textContent())
      .toBe("answered by B on attempt 2");
    expect(await recovered.textContent()).toBe("B · attempt 2 · after lease expired");
    expect(await row.locator(".tl-via").textContent()).toBe("A");
    // The recovered run began after A's run was cut off.
    const cutAt = Number(await runA.getAttribute("data-end-ms"));
    expect(Number(await recovered.getAttribute("data-start-ms"))).toBeGreaterThanOrEqual(cutAt);

    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.screenshot({ path: `${RESULTS_DIR}playground-failover.png`, fullPage: true });

    await cardA.locator('button[data-action="restart"]').click();
    await page.locator('.instance[data-instance="A"][data-status="running"]').waitFor();
    expect(pageErrors).toEqual([]);
  }, 90_000);
});

/** Types `seconds` into the handler time and waits until the server applied it. */
async function setHandlerSeconds(page: Page, seconds: number) {
  await page.fill("#handler-seconds", String(seconds));
  await page.locator("#handler-seconds").blur();
  await page
    .locator(`#settings-status[data-state="applied"][data-handler-seconds="${seconds}"]`)
    .waitFor();
}

/** The timeline's run bars of one lock key, once every one of them has ended, by start. */
async function closedRuns(page: Page, lockKey: string) {
  const read = () =>
    page.locator(`.tl-run[data-lock-key="${lockKey}"]`).evaluateAll((bars) =>
      bars.map((bar) => {
        const data = (bar as HTMLElement).dataset;
        return {
          startMs: Number(data.startMs),
          endMs: data.endMs === "" ? Number.NaN : Number(data.endMs),
          skipped: Number(data.skippedCount),
        };
      }),
    );
  await expect
    .poll(async () => (await read()).filter((run) => !Number.isNaN(run.endMs)).length, {
      timeout: ANSWER_TIMEOUT_MS,
    })
    .toBe(2);
  return (await read()).sort((a, b) => a.startMs - b.startMs);
}
