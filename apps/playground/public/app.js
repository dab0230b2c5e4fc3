// The playground page: settings, connection state, and wiring of the chat panes and timeline.
import { AgentPane } from "./agent.js";
import { ChatPanes } from "./chat.js";
import { InstancesPanel } from "./instances.js";
import { TimelineView } from "./timeline.js";

const STRATEGY_HELP = {
  drop: "While a handler runs, new messages for the same lock are dropped. Baton's default.",
  queue:
    "New messages wait in a queue. When the handler finishes, the latest one runs, with the waiting ones in context.skipped.",
  debounce:
    "Waits until nobody has written for 1.5 s, then runs once for the latest message; the earlier ones are skipped into it.",
  burst:
    "Collects messages for 1.5 s from the first one, then runs the latest, with the rest skipped into it.",
  concurrent: "No lock: every message gets its own handler at once, side by side.",
};

const GRACE_MS = 2_000;

/**
 * What the page knows about its link to the server: two event streams and the last request.
 * A stream that stays down past a short grace period (a restart of the bot reconnects within
 * it), or a request that got no answer, shows the banner.
 */
class Connection {
  constructor(banner, badge) {
    this.banner = banner;
    this.badge = badge;
    this.down = new Map([
      ["chat", Date.now()],
      ["timeline", Date.now()],
    ]);
    this.requestError = "";
    setInterval(() => this.update(), 500);
  }

  streamUp(name) {
    this.down.delete(name);
    this.requestError = "";
    this.update();
  }

  streamDown(name) {
    if (!this.down.has(name)) this.down.set(name, Date.now());
    this.update();
  }

  requestFailed(message) {
    this.requestError = message;
    this.update();
  }

  requestOk() {
    this.requestError = "";
    this.update();
  }

  update() {
    const longest = Math.max(0, ...[...this.down.values()].map((since) => Date.now() - since));
    const offline = this.down.size > 0 && longest > GRACE_MS;
    const message = offline
      ? "Can’t reach the playground server. Is it still running? Start it with “npm start”. Retrying…"
      : this.requestError;
    this.banner.hidden = !message;
    this.banner.textContent = message;
    const state = offline ? "offline" : this.down.size > 0 ? "connecting" : "online";
    this.badge.dataset.state = state;
    this.badge.textContent = { offline: "Offline", connecting: "Connecting…", online: "Connected" }[
      state
    ];
  }
}

const $ = (id) => document.getElementById(id);
const connection = new Connection($("banner"), $("connection"));
const chats = new ChatPanes({ root: $("panes"), connection });
const timeline = new TimelineView($("timeline"), {
  textOf: (key) => chats.textOf(key),
  onOutcome: (key, outcome, reason) => chats.markOutcome(key, outcome, reason),
});
const instances = new InstancesPanel({
  root: $("instances"),
  deliverTo: $("deliver-to"),
  help: $("instances-help"),
  connection,
  activity: (name) =>
    timeline
      .openRunsOf(name)
      .map((run) => {
        const text = chats.textOf(run.key);
        const attempt = run.attempt > 1 ? ` (attempt ${run.attempt})` : "";
        return `answering ${text ? `“${text}”` : "a message"}${attempt}`;
      })
      .join("; "),
});
const controls = {
  strategy: $("strategy"),
  lockScope: $("lock-scope"),
  handlerSeconds: $("handler-seconds"),
};
const status = $("settings-status");

function showSettings(settings) {
  controls.strategy.value = settings.strategy;
  controls.lockScope.value = settings.lockScope;
  controls.handlerSeconds.value = String(settings.handlerSeconds);
  $("strategy-help").textContent = STRATEGY_HELP[settings.strategy] ?? "";
  status.dataset.state = "applied";
  status.dataset.strategy = settings.strategy;
  status.dataset.lockScope = settings.lockScope;
  status.dataset.handlerSeconds = String(settings.handlerSeconds);
  status.textContent = `Running: ${settings.strategy}, ${settings.lockScope} lock scope, handler ${settings.handlerSeconds} s`;
}

let current = null;

async function applySettings(change) {
  status.dataset.state = "applying";
  status.textContent = "Applying… (restarting the bot with the new settings)";
  for (const control of Object.values(controls)) control.disabled = true;
  try {
    const response = await fetch("/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(change),
    });
    const body = await response.json();
    connection.requestOk();
    if (!response.ok) {
      // Put the controls back to what runs, then say why the change was refused.
      if (current) showSettings(current);
      status.dataset.state = "error";
      status.textContent = `Not applied: ${body.error}`;
      return;
    }
    current = body.settings;
    showSettings(current);
  } catch {
    connection.requestFailed(
      "The settings were not applied: the playground server did not answer.",
    );
    status.dataset.state = "error";
    status.textContent = "Not applied: the server did not answer.";
  } finally {
    for (const control of Object.values(controls)) control.disabled = false;
  }
}

controls.strategy.addEventListener("change", () =>
  applySettings({ strategy: controls.strategy.value }),
);
controls.lockScope.addEventListener("change", () =>
  applySettings({ lockScope: controls.lockScope.value }),
);
controls.handlerSeconds.addEventListener("change", () => {
  const seconds = Number(controls.handlerSeconds.value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 60) {
    status.dataset.state = "error";
    status.textContent = "The handler time must be between 0 and 60 seconds.";
    return;
  }
  applySettings({ handlerSeconds: seconds });
});

$("add-thread").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("new-thread-name");
  const name = input.value.trim();
  const problem = name ? chats.open(name) : "Type a name for the thread first.";
  $("add-thread-error").textContent = problem;
  if (!problem) input.value = "";
});

$("clear-timeline").addEventListener("click", () => {
  fetch("/api/timeline/clear", { method: "POST" }).catch(() =>
    connection.requestFailed("Could not clear the timeline: the playground server did not answer."),
  );
});

function connectTimeline() {
  const source = new EventSource("/api/timeline");
  source.addEventListener("open", () => connection.streamUp("timeline"));
  source.addEventListener("error", () => {
    connection.streamDown("timeline");
    if (source.readyState === EventSource.CLOSED) setTimeout(connectTimeline, 2_000);
  });
  source.addEventListener("snapshot", (event) => {
    const { entries, settings, instances: view, serverNowMs } = JSON.parse(event.data);
    current = settings;
    showSettings(settings);
    instances.show(view);
    timeline.reset(entries, serverNowMs);
  });
  source.addEventListener("entry", (event) => timeline.add(JSON.parse(event.data)));
  source.addEventListener("clear", () => timeline.reset([], Date.now() + timeline.clockOffsetMs));
  source.addEventListener("instances", (event) => instances.show(JSON.parse(event.data)));
  source.addEventListener("settings", (event) => {
    current = JSON.parse(event.data);
    showSettings(current);
  });
}

chats.start();
connectTimeline();
new AgentPane({ root: $("agent"), connection }).start();
