// The agent bot's pane: a direct conversation with the reference agent (@baton/agent-bot) on its
// local model. Its answers stream in as the web adapter's `message` then `edit` events, so the
// answer grows in place; the Stop button stops the answer under way. Plain DOM, no build step.

const EVENTS_PATH = "/api/agent/web/events";
const MESSAGES_PATH = "/api/agent/web/messages";
const STOP_PATH = "/api/agent/stop";

/** The agent's control message: "Answering…" while it streams, then "Answered." or "Stopped.". */
function noticeKind(text) {
  if (text.startsWith("Answering")) return "answering";
  if (text === "Answered.") return "answered";
  if (text === "Stopped.") return "stopped";
  return null;
}

export class AgentPane {
  /**
   * @param {{ root: HTMLElement, connection: { streamUp(name: string): void, streamDown(name: string): void, requestFailed(message: string): void, requestOk(): void } }} options
   */
  constructor({ root, connection }) {
    this.root = root;
    this.connection = connection;
    this.userId = null;
    this.threadId = null;
    /** messageId → the web adapter's wire message */
    this.messages = new Map();
    this.pane = this.build();
    root.replaceChildren(this.pane);
  }

  start() {
    const source = new EventSource(EVENTS_PATH);
    source.addEventListener("open", () => this.connection.streamUp("agent"));
    source.addEventListener("error", () => {
      this.connection.streamDown("agent");
      if (source.readyState === EventSource.CLOSED) setTimeout(() => this.start(), 2_000);
    });
    const on = (type, handle) =>
      source.addEventListener(type, (event) => handle(JSON.parse(event.data)));
    on("hello", ({ userId }) => {
      this.userId = userId;
      this.threadId = `web:${userId}:dm`;
      this.pane.dataset.threadId = this.threadId;
      // Each connection starts over with a snapshot of what the server keeps.
      this.messages = new Map();
      this.render();
    });
    on("snapshot", ({ threadId, messages }) => {
      if (threadId !== this.threadId) return;
      for (const message of messages) this.messages.set(message.id, message);
      this.render();
    });
    const upsert = ({ threadId, message }) => {
      if (threadId !== this.threadId) return;
      this.messages.set(message.id, { ...this.messages.get(message.id), ...message });
      this.render();
    };
    on("message", upsert);
    on("edit", upsert);
    on("delete", ({ threadId, messageId }) => {
      if (threadId !== this.threadId) return;
      this.messages.delete(messageId);
      this.render();
    });
  }

  build() {
    const pane = document.createElement("article");
    pane.className = "pane agent-pane";
    pane.dataset.bot = "agent";
    pane.innerHTML = `
      <header class="pane-head">
        <h3>Agent bot</h3>
        <span class="badge">DM</span>
        <button type="button" class="stop" disabled>Stop</button>
      </header>
      <p class="pane-hint">The reference agent on its local model: it reads this conversation with a tool, then streams its answer.</p>
      <ol class="messages" aria-live="polite"></ol>
      <form class="composer">
        <input autocomplete="off" maxlength="4000" aria-label="Message the agent bot" placeholder="Ask the agent…" />
        <button type="submit">Send</button>
      </form>`;
    const input = pane.querySelector("input");
    pane.querySelector("form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text || !this.threadId) return;
      input.value = "";
      this.send(text);
    });
    pane.querySelector(".stop").addEventListener("click", () => this.stop());
    return pane;
  }

  async send(text) {
    try {
      const response = await fetch(MESSAGES_PATH, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ threadId: this.threadId, text }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        this.connection.requestFailed(
          `The agent did not take the message: ${body.error ?? response.status}`,
        );
        return;
      }
      this.connection.requestOk();
    } catch {
      this.connection.requestFailed(
        "Your message to the agent was not sent: the server did not answer.",
      );
    }
  }

  async stop() {
    const button = this.pane.querySelector(".stop");
    button.disabled = true;
    try {
      await fetch(STOP_PATH, { method: "POST" });
      this.connection.requestOk();
    } catch {
      this.connection.requestFailed("Could not stop the agent: the server did not answer.");
    }
  }

  render() {
    const list = this.pane.querySelector(".messages");
    const messages = [...this.messages.values()].sort(
      (a, b) => a.dateSentMs - b.dateSentMs || a.seq - b.seq,
    );
    list.replaceChildren(...messages.map((message) => this.item(message)));
    if (messages.length === 0) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "Ask the agent anything";
      list.append(empty);
    }
    list.scrollTop = list.scrollHeight;
    const answering = messages.some((m) => m.author.isMe && noticeKind(m.text) === "answering");
    const stop = this.pane.querySelector(".stop");
    stop.disabled = !answering;
    this.pane.dataset.answering = String(answering);
  }

  item(message) {
    const li = document.createElement("li");
    const fromBot = message.author.isMe;
    const notice = fromBot ? noticeKind(message.text) : null;
    li.className = `msg ${fromBot ? "bot" : "user"}${notice ? " notice" : ""}`;
    li.dataset.messageId = message.id;
    li.dataset.author = fromBot ? "bot" : "user";
    li.dataset.kind = notice ? "notice" : fromBot ? "answer" : "question";
    if (notice) li.dataset.notice = notice;
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = `${fromBot ? "agent" : "you"}${message.edited ? " · edited" : ""}`;
    const text = document.createElement("div");
    text.className = "text";
    // The web adapter shows no cards: the control card arrives as its fallback text.
    text.textContent = notice === "answering" ? "Answering…" : message.text;
    li.append(meta, text);
    return li;
  }
}
