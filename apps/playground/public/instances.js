// The instance panel: the demo bot's two instances (A and B) on one shared State, where new
// messages go, and the buttons that kill, shut down and restart an instance.

const STATUS_TEXT = {
  running: "running",
  stopping: "shutting down…",
  stopped: "shut down",
  killed: "killed (SIGKILL)",
};

const DOWN_TEXT = {
  stopping: "handing its running turns back…",
  stopped: "gets no messages; its turns were handed back",
  killed: "renews nothing, answers nothing: its turns move on when their leases lapse",
};

export class InstancesPanel {
  /**
   * @param {{
   *   root: HTMLElement,
   *   deliverTo: HTMLSelectElement,
   *   help: HTMLElement,
   *   activity(name: string): string,
   *   connection: { requestFailed(message: string): void, requestOk(): void },
   * }} options
   */
  constructor({ root, deliverTo, help, activity, connection }) {
    this.root = root;
    this.deliverTo = deliverTo;
    this.help = help;
    this.activity = activity;
    this.connection = connection;
    this.view = null;
    this.busy = new Set();
    this.deliverTo.addEventListener("change", () =>
      this.post("/api/instances/route", { deliverTo: this.deliverTo.value }),
    );
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-action]");
      if (!button) return;
      const { instance, action } = button.dataset;
      this.busy.add(instance);
      this.render();
      this.post(`/api/instances/${instance}/${action}`, {}).finally(() => {
        this.busy.delete(instance);
        this.render();
      });
    });
    // What each instance is doing comes from the timeline, which moves on its own.
    setInterval(() => this.renderActivity(), 500);
  }

  /** Shows `view` (`GET /api/instances`, or the timeline stream's `instances` event). */
  show(view) {
    this.view = view;
    this.deliverTo.value = view.deliverTo;
    const ttl = seconds(view.lockTtlMs);
    const sweep = seconds(view.sweepIntervalMs);
    this.help.innerHTML = `The demo bot runs as two instances, two <code>Chat</code>s on one shared
      memory State, as two processes share Redis. <strong>Kill</strong> the one that is answering:
      it stops dead — its State connection is cut, nothing is cleaned up — so its lock lease lapses
      (<code>lockTtlMs</code> = ${ttl}) and the other instance's sweeper (every
      <code>sweepIntervalMs</code> = ${sweep}) runs the turn again as attempt 2, within ${seconds(view.lockTtlMs + view.sweepIntervalMs)}.
      <strong>Shut down</strong> hands the turn back at once: it runs again within one sweep.
      (Short values for the demo; Baton's default lease is 30 s. The <em>concurrent</em>
      strategy takes no lock, so its turns are not run again.)`;
    this.render();
  }

  render() {
    if (!this.view) return;
    this.root.replaceChildren(...this.view.instances.map((instance) => this.card(instance)));
    this.renderActivity();
  }

  renderActivity() {
    for (const card of this.root.querySelectorAll(".instance")) {
      const { status, instance } = card.dataset;
      const text = status === "running" ? this.activity(instance) || "idle" : DOWN_TEXT[status];
      card.querySelector(".doing").textContent = text ?? "";
    }
  }

  card({ name, status }) {
    const card = document.createElement("article");
    card.className = "instance";
    card.dataset.instance = name;
    card.dataset.status = status;
    const busy = this.busy.has(name) || status === "stopping";
    const down = status === "killed" || status === "stopped";
    card.innerHTML = `
      <header>
        <span class="instance-dot"></span>
        <h3>Instance ${name}</h3>
        <span class="instance-status">${STATUS_TEXT[status] ?? status}</span>
      </header>
      <p class="doing"></p>
      <div class="instance-actions">
        <button type="button" class="kill" data-instance="${name}" data-action="kill" title="Stop it dead, like SIGKILL: no shutdown, no hand-back">Kill ${name}</button>
        <button type="button" class="secondary" data-instance="${name}" data-action="shutdown" title="chat.shutdown(): running turns are handed back">Shut down ${name} gracefully</button>
        <button type="button" class="secondary" data-instance="${name}" data-action="restart" title="Start a fresh Chat for this instance">Restart ${name}</button>
      </div>`;
    for (const button of card.querySelectorAll("button")) {
      const wantsDown = button.dataset.action === "restart";
      button.disabled = busy || wantsDown !== down;
    }
    return card;
  }

  async post(path, body) {
    try {
      const response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      this.connection.requestOk();
      if (answer.ok) this.show(answer);
      else this.connection.requestFailed(`Not done: ${answer.error}`);
    } catch {
      this.connection.requestFailed("The playground server did not answer.");
    }
  }
}

function seconds(ms) {
  return `${Number((ms / 1_000).toFixed(1))} s`;
}
