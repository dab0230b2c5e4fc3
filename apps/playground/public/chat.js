// The chat panes: one per thread, fed by the web adapter's event stream (GET /api/web/events)
// and sending with POST /api/web/messages. Plain DOM, no framework, no build step.

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const STORAGE_KEY = "baton-playground-threads";
const DEFAULT_THREADS = ["dm", "general"];
const TYPING_TIMEOUT_MS = 65_000;

/** Text for a delivery's disposition, shown under the user's message. */
export function outcomeLabel(outcome, reason) {
  switch (outcome) {
    case "handled":
      return "answered";
    case "skipped":
      return "read together with a later message";
    case "dropped-lock-conflict":
      return "dropped: the bot was busy (lock held)";
    case "expired":
      return "expired while waiting";
    case "preempted":
      return reason?.includes("shut") ? "stopped: the bot restarted" : "stopped before the answer";
    case "error":
      return "failed in the bot";
    case "ignored":
      return "ignored: no handler for it";
    case "queued":
      if (reason?.includes("handed back")) return "handed back to the other instance";
      return reason?.includes("another instance")
        ? "waiting: the other instance is answering"
        : "waiting in the queue";
    case "abandoned":
      return "abandoned: interrupted too often";
    case "duplicate":
      return "duplicate, already received";
    default:
      return outcome;
  }
}

export class ChatPanes {
  /**
   * @param {{ root: HTMLElement, connection: import("./app.js").Connection }} options
   */
  constructor({ root, connection }) {
    this.root = root;
    this.connection = connection;
    this.userId = null;
    this.userName = null;
    this.clockOffsetMs = 0;
    /** threadName → { name, threadId, messages: Map, typing: {status, until} | null, pane } */
    this.threads = new Map();
    this.openNames = loadOpenNames();
    /** deliveryKey → [outcome, reason] learned from the timeline before the message was seen */
    this.outcomes = new Map();
  }

  start() {
    this.root.innerHTML = '<p class="empty">Connecting to the bot…</p>';
    this.connect();
  }

  connect() {
    const source = new EventSource("/api/web/events");
    this.source = source;
    source.addEventListener("open", () => this.connection.streamUp("chat"));
    source.addEventListener("error", () => {
      this.connection.streamDown("chat");
      // A refused stream (e.g. 401) is not retried by the browser; retry it ourselves.
      if (source.readyState === EventSource.CLOSED) setTimeout(() => this.connect(), 2_000);
    });
    const on = (type, handle) =>
      source.addEventListener(type, (event) => handle(JSON.parse(event.data)));
    on("hello", (hello) => this.onHello(hello));
    on("snapshot", ({ threadId, messages }) => {
      const thread = this.threadById(threadId);
      const sending = [...thread.messages.values()].filter((m) => m.pending || m.failed);
      thread.messages = new Map(messages.map((message) => [message.id, message]));
      // Messages this page is still sending may be newer than the snapshot: keep them.
      for (const message of sending) {
        if (!thread.messages.has(message.id)) thread.messages.set(message.id, message);
      }
      this.render(thread);
    });
    on("message", ({ threadId, message }) => this.upsert(threadId, message, true));
    on("edit", ({ threadId, message }) => this.upsert(threadId, message, false));
    on("delete", ({ threadId, messageId }) => {
      const thread = this.threadById(threadId);
      thread.messages.delete(messageId);
      this.render(thread);
    });
    on("reaction", ({ threadId, messageId, emoji, added }) => {
      const message = this.threadById(threadId).messages.get(messageId);
      if (!message) return;
      message.reactions = added
        ? [...new Set([...message.reactions, emoji])]
        : message.reactions.filter((name) => name !== emoji);
      this.render(this.threadById(threadId));
    });
    on("typing", ({ threadId, status }) => {
      const thread = this.threadById(threadId);
      thread.typing = { status, until: Date.now() + TYPING_TIMEOUT_MS };
      this.render(thread);
      setTimeout(() => this.render(thread), TYPING_TIMEOUT_MS + 50);
    });
  }

  onHello({ userId, userName, serverNowMs }) {
    const first = this.userId === null;
    this.userId = userId;
    this.userName = userName;
    this.clockOffsetMs = serverNowMs - Date.now();
    // Every connection starts over: hello, then a snapshot of each thread the server keeps. A
    // thread without a snapshot has nothing kept (e.g. the server restarted), so it is emptied,
    // except for messages this page is still sending or failed to send.
    for (const thread of this.threads.values()) {
      thread.messages = new Map(
        [...thread.messages].filter(([, message]) => message.pending || message.failed),
      );
      thread.typing = null;
      this.render(thread);
    }
    if (first) {
      this.root.innerHTML = "";
      for (const name of this.openNames) this.open(name);
    }
  }

  /** Opens a pane for thread `name`; returns an error text, or "" when it opened. */
  open(name) {
    if (!NAME_PATTERN.test(name)) return "Use 1–64 letters, digits, “_”, “.” or “-”.";
    if (!this.userId) return "Not connected yet; try again in a moment.";
    const thread = this.thread(name);
    if (thread.pane) {
      thread.pane.querySelector("input")?.focus();
      return "";
    }
    thread.pane = this.buildPane(thread);
    this.root.append(thread.pane);
    if (!this.openNames.includes(name)) this.openNames.push(name);
    saveOpenNames(this.openNames);
    this.render(thread);
    return "";
  }

  close(name) {
    const thread = this.threads.get(name);
    thread?.pane?.remove();
    if (thread) thread.pane = null;
    this.openNames = this.openNames.filter((open) => open !== name);
    saveOpenNames(this.openNames);
  }

  /** The text of the message a timeline delivery key (`web:{messageId}`) stands for. */
  textOf(deliveryKey) {
    const id = deliveryKey.slice(deliveryKey.indexOf(":") + 1);
    for (const thread of this.threads.values()) {
      const message = thread.messages.get(id);
      if (message) return message.text;
    }
    return undefined;
  }

  /** Shows how a message's delivery ended (from the timeline) under the message. */
  markOutcome(deliveryKey, outcome, reason) {
    this.outcomes.set(deliveryKey, [outcome, reason]);
    const id = deliveryKey.slice(deliveryKey.indexOf(":") + 1);
    for (const thread of this.threads.values()) {
      if (thread.messages.has(id)) this.render(thread);
    }
  }

  thread(name) {
    let thread = this.threads.get(name);
    if (!thread) {
      thread = {
        name,
        threadId: `web:${this.userId}:${name}`,
        messages: new Map(),
        typing: null,
        pane: null,
      };
      this.threads.set(name, thread);
    }
    return thread;
  }

  threadById(threadId) {
    return this.thread(threadId.split(":")[2]);
  }

  upsert(threadId, message, isNew) {
    const thread = this.threadById(threadId);
    const before = thread.messages.get(message.id);
    thread.messages.set(message.id, { ...before, ...message, pending: false, failed: null });
    if (isNew && message.author.isMe) thread.typing = null;
    // A message in a thread this page does not show (another tab opened it): show it.
    if (isNew && !thread.pane) this.open(thread.name);
    this.render(thread);
  }

  async send(thread, text) {
    const clientId = randomId();
    const id = `${this.userId}.${clientId}`;
    const now = Date.now() + this.clockOffsetMs;
    thread.messages.set(id, {
      id,
      threadId: thread.threadId,
      text,
      author: { userId: this.userId, userName: this.userName, isBot: false, isMe: false },
      dateSentMs: now,
      seq: Number.MAX_SAFE_INTEGER,
      reactions: [],
      pending: true,
    });
    this.render(thread);
    await this.post(thread, id, clientId, text, 1);
  }

  async post(thread, id, clientId, text, attempt) {
    const entry = () => thread.messages.get(id);
    const fail = (why) => {
      if (entry())
        Object.assign(entry(), { pending: false, failed: why, retry: { clientId, text } });
      this.render(thread);
    };
    let response;
    try {
      response = await fetch("/api/web/messages", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threadId: thread.threadId, text, id: clientId }),
      });
    } catch {
      this.connection.requestFailed(
        "Your message was not sent: the playground server did not answer. Is it still running?",
      );
      return fail("not sent: the server did not answer");
    }
    this.connection.requestOk();
    const body = await response.json().catch(() => ({}));
    if (response.ok) {
      if (entry()?.pending) Object.assign(entry(), { pending: false });
      this.render(thread);
      return;
    }
    // 503: the bot is restarting with new settings, or busy. The same client id makes a retry
    // safe: the server treats a second copy as a duplicate.
    if (response.status === 503 && attempt < 6) {
      const waitMs = Math.max(1, Number(response.headers.get("retry-after")) || 1) * 1_000;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      return this.post(thread, id, clientId, text, attempt + 1);
    }
    fail(`not sent: ${body.error ?? `the server answered ${response.status}`}`);
  }

  buildPane(thread) {
    const pane = document.createElement("article");
    pane.className = "pane";
    pane.dataset.threadName = thread.name;
    pane.dataset.threadId = thread.threadId;
    const isDM = thread.name === "dm";
    const title = isDM ? "Direct message" : `#${thread.name}`;
    const hint = isDM
      ? "Every message here goes to the bot."
      : "Mention @baton to start; after its first answer it follows this thread.";
    pane.innerHTML = `
      <header class="pane-head">
        <h3></h3>
        <span class="badge">${isDM ? "DM" : "thread"}</span>
        ${isDM ? "" : '<button type="button" class="close" title="Close this pane (its messages are kept)">×</button>'}
      </header>
      <p class="pane-hint"></p>
      <ol class="messages" aria-live="polite"></ol>
      <p class="typing" hidden></p>
      <form class="composer">
        <input autocomplete="off" maxlength="4000" />
        <button type="submit">Send</button>
      </form>`;
    pane.querySelector("h3").textContent = title;
    pane.querySelector(".pane-hint").textContent = hint;
    const input = pane.querySelector("input");
    input.setAttribute("aria-label", `Message ${title}`);
    input.placeholder = isDM ? "Message the bot…" : "Message, e.g. “@baton hi”";
    pane.querySelector(".close")?.addEventListener("click", () => this.close(thread.name));
    pane.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      input.focus();
      this.send(thread, text);
    });
    pane.querySelector(".messages").addEventListener("click", (event) => {
      const button = event.target.closest("button[data-retry]");
      const message = button && thread.messages.get(button.dataset.retry);
      if (!message?.retry) return;
      Object.assign(message, { pending: true, failed: null });
      this.render(thread);
      this.post(thread, message.id, message.retry.clientId, message.retry.text, 1);
    });
    return pane;
  }

  render(thread) {
    if (!thread.pane) return;
    const list = thread.pane.querySelector(".messages");
    const messages = [...thread.messages.values()].sort(
      (a, b) => a.dateSentMs - b.dateSentMs || a.seq - b.seq,
    );
    list.replaceChildren(...(messages.length ? messages.map((m) => this.item(m)) : [emptyItem()]));
    list.scrollTop = list.scrollHeight;
    const typing = thread.pane.querySelector(".typing");
    const showTyping = thread.typing && thread.typing.until > Date.now();
    typing.hidden = !showTyping;
    typing.textContent = showTyping ? `baton is ${thread.typing.status ?? "typing"}…` : "";
  }

  item(message) {
    const li = document.createElement("li");
    const fromBot = message.author.isMe;
    li.className = `msg ${fromBot ? "bot" : "user"}`;
    if (message.pending) li.classList.add("pending");
    if (message.failed) li.classList.add("failed");
    if (message.ephemeral) li.classList.add("ephemeral");
    li.dataset.messageId = message.id;
    li.dataset.author = fromBot ? "bot" : "user";
    const meta = document.createElement("div");
    meta.className = "meta";
    const time = new Date(message.dateSentMs - this.clockOffsetMs).toLocaleTimeString();
    meta.textContent = `${fromBot ? "baton" : "you"} · ${time}${message.edited ? " · edited" : ""}`;
    const text = document.createElement("div");
    text.className = "text";
    text.textContent = message.text;
    li.append(meta, text);
    if (message.reactions?.length) {
      const reactions = document.createElement("div");
      reactions.className = "reactions";
      reactions.textContent = message.reactions.map((name) => `:${name}:`).join(" ");
      li.append(reactions);
    }
    const status = document.createElement("div");
    status.className = "status";
    const outcome = this.outcomes.get(`web:${message.id}`);
    if (message.failed) {
      status.textContent = `${message.failed} `;
      const retry = document.createElement("button");
      retry.type = "button";
      retry.dataset.retry = message.id;
      retry.textContent = "Retry";
      status.append(retry);
    } else if (message.pending) status.textContent = "sending…";
    else if (!fromBot && outcome) {
      status.textContent = outcomeLabel(...outcome);
      status.dataset.outcome = outcome[0];
    }
    if (status.textContent) li.append(status);
    return li;
  }
}

function emptyItem() {
  const li = document.createElement("li");
  li.className = "empty";
  li.textContent = "No messages yet — say hi";
  return li;
}

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function loadOpenNames() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    if (Array.isArray(stored) && stored.every((name) => NAME_PATTERN.test(name))) {
      return ["dm", ...stored.filter((name) => name !== "dm")];
    }
  } catch {
    // A corrupt entry: start over with the defaults.
  }
  return [...DEFAULT_THREADS];
}

function saveOpenNames(names) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(names));
  } catch {
    // Storage may be disabled; the panes then reset on reload, nothing else breaks.
  }
}
