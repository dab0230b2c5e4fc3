// The live timeline: the runtime's dispatch events (Observer.onDispatchEvent) folded into one row
// per message, grouped in one lane per lock key, drawn as bars on a shared time axis.

const MAX_DELIVERIES = 40;
/** Why a turn ran again (`context.interrupted.reason`), as a run bar says it. */
const AFTER = {
  "lease-expired": "lease expired",
  shutdown: "shutdown",
  "lease-lost": "lease lost",
};
const TICK_STEPS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000];

/** Rows of the model: what happened to one delivery (one message). */
function newDelivery(key, atMs) {
  return { key, lockKey: null, threadId: null, arrivedMs: atMs, runs: [], skippedInto: null };
}

export class TimelineView {
  /**
   * @param {HTMLElement} root
   * @param {{ textOf(key: string): string | undefined, onOutcome(key: string, outcome: string, reason?: string): void }} options
   */
  constructor(root, { textOf, onOutcome }) {
    this.root = root;
    this.textOf = textOf;
    this.onOutcome = onOutcome;
    this.clockOffsetMs = 0;
    this.reset([], Date.now());
    setInterval(() => {
      if (this.isActive()) this.scheduleRender();
    }, 200);
  }

  /** Replaces the model with `entries` (a snapshot); `serverNowMs` aligns the clocks. */
  reset(entries, serverNowMs) {
    this.clockOffsetMs = serverNowMs - Date.now();
    this.deliveries = new Map();
    this.markers = [];
    this.lastMs = 0;
    for (const entry of entries) this.apply(entry);
    this.scheduleRender();
  }

  add(entry) {
    this.apply(entry);
    this.scheduleRender();
  }

  /** Something is still moving: a run without its end, or a message waiting. */
  isActive() {
    for (const delivery of this.deliveries.values()) {
      if (delivery.runs.some((run) => run.endMs === null)) return true;
      if (!delivery.outcome && !delivery.skippedInto) return true;
    }
    return false;
  }

  apply(entry) {
    this.lastMs = Math.max(this.lastMs, entry.atMs);
    if (entry.kind === "marker") {
      this.markers.push(entry);
      return;
    }
    if (entry.kind === "instance") {
      this.instanceChanged(entry);
      return;
    }
    if (entry.kind === "attempt") {
      // Reported by the run itself, just after its run-started: label that run.
      const runs = this.deliveries.get(entry.deliveryKey)?.runs ?? [];
      const run = runs.findLast((r) => r.instance === entry.instance && r.attempt === undefined);
      if (run) Object.assign(run, { attempt: entry.attempt, after: entry.interruptedReason });
      return;
    }
    const delivery = this.delivery(entry.deliveryKey, entry.atMs);
    delivery.lockKey ??= entry.lockKey ?? null;
    delivery.threadId ??= entry.threadId ?? null;
    switch (entry.kind) {
      case "accepted":
        delivery.arrivedMs = entry.atMs;
        delivery.receivedBy = entry.instance;
        break;
      case "queued":
        delivery.queuedMs ??= entry.atMs;
        break;
      case "run-started": {
        // A run drained from another Chat's queue may come without an accepted event here.
        delivery.lockKey ??= `thread:${entry.threadId}`;
        const run = {
          startMs: entry.atMs,
          endMs: null,
          skippedKeys: entry.skippedKeys ?? [],
          instance: entry.instance,
          attempt: undefined,
        };
        delivery.runs.push(run);
        for (const key of run.skippedKeys) {
          const skipped = this.delivery(key, entry.atMs);
          skipped.lockKey ??= delivery.lockKey;
          skipped.skippedInto = delivery.key;
          skipped.skippedAtMs = entry.atMs;
        }
        break;
      }
      case "run-finished": {
        const open = delivery.runs.findLast((run) => run.endMs === null);
        if (open) open.endMs = entry.atMs;
        break;
      }
      case "settled":
        if (entry.outcome === "queued" && entry.reason?.includes("handed back")) {
          const run = delivery.runs.findLast((r) => r.instance === entry.instance);
          if (run) run.cut = "handed back";
        }
        delivery.outcome = entry.outcome;
        delivery.reason = entry.reason;
        delivery.settledMs = entry.atMs;
        this.onOutcome(delivery.key, entry.outcome, entry.reason);
        break;
    }
  }

  /** A killed instance's runs end where it died; any change shows as a marker. */
  instanceChanged({ instance, change, atMs }) {
    this.markers.push({ kind: "marker", label: `${instance} ${change}`, atMs, change });
    if (change !== "killed") return;
    for (const delivery of this.deliveries.values()) {
      for (const run of delivery.runs) {
        if (run.instance === instance && run.endMs === null)
          Object.assign(run, { endMs: atMs, cut: "killed" });
      }
    }
  }

  /** The runs instance `name` has going now, with the text they answer. */
  openRunsOf(name) {
    const open = [];
    for (const delivery of this.deliveries.values()) {
      for (const run of delivery.runs) {
        if (run.instance === name && run.endMs === null) open.push({ key: delivery.key, ...run });
      }
    }
    return open;
  }

  delivery(key, atMs) {
    let delivery = this.deliveries.get(key);
    if (!delivery) {
      delivery = newDelivery(key, atMs);
      this.deliveries.set(key, delivery);
      // Keep the picture readable: the oldest rows leave first.
      while (this.deliveries.size > MAX_DELIVERIES) {
        this.deliveries.delete(this.deliveries.keys().next().value);
      }
    }
    return delivery;
  }

  scheduleRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.render();
    });
  }

  render() {
    const rows = [...this.deliveries.values()].filter((delivery) => delivery.lockKey);
    if (rows.length === 0) {
      this.root.innerHTML =
        '<p class="empty">No deliveries yet — send a message and watch it arrive, wait and run here.</p>';
      return;
    }
    const nowMs = Date.now() + this.clockOffsetMs;
    const origin = Math.min(...rows.map((delivery) => delivery.arrivedMs));
    const lastMs = this.isActive() ? nowMs : this.lastMs;
    const startMs = origin - 250;
    const endMs = Math.max(lastMs, origin + 3_000) + 500;
    const x = (ms) =>
      ((Math.min(Math.max(ms, startMs), endMs) - startMs) / (endMs - startMs)) * 100;

    const lanes = new Map();
    for (const delivery of rows.sort((a, b) => a.arrivedMs - b.arrivedMs)) {
      if (!lanes.has(delivery.lockKey)) lanes.set(delivery.lockKey, []);
      lanes.get(delivery.lockKey).push(delivery);
    }
    const markers = this.markers
      .filter((marker) => marker.atMs >= startMs)
      .map(
        (marker) =>
          `<div class="tl-marker ${marker.change ?? ""}" style="left:${x(marker.atMs)}%" title="${escape(marker.label)}"><span>${escape(marker.label)}</span></div>`,
      )
      .join("");
    this.root.innerHTML = `
      <div class="tl-axis-row"><div class="tl-label"></div><div class="tl-track tl-axis">${ticks(startMs, endMs, origin, x)}</div><div class="tl-outcome"></div></div>
      <div class="tl-lanes"><div class="tl-marker-layer">${markers}</div>
      ${[...lanes].map(([lockKey, deliveries]) => this.lane(lockKey, deliveries, nowMs, x)).join("")}</div>`;
  }

  lane(lockKey, deliveries, nowMs, x) {
    const [scope, , user, thread] = lockKey.split(":");
    const title =
      scope === "channel"
        ? `channel lock · all threads of ${user}`
        : `thread lock · ${thread === "dm" ? "direct message" : `#${thread}`}`;
    return `<section class="tl-lane" data-lock-key="${escape(lockKey)}">
      <h3><span>${escape(title)}</span> <code>${escape(lockKey)}</code></h3>
      ${deliveries.map((delivery) => this.row(delivery, lockKey, nowMs, x)).join("")}
    </section>`;
  }

  row(delivery, lockKey, nowMs, x) {
    const text = this.textOf(delivery.key) ?? "(a message from before this page loaded)";
    const firstRun = delivery.runs[0]?.startMs;
    const waitEnd =
      firstRun ??
      delivery.skippedAtMs ??
      (delivery.outcome && delivery.outcome !== "queued" ? delivery.settledMs : nowMs);
    const bars = [];
    if (waitEnd - delivery.arrivedMs > 40) {
      bars.push(bar("tl-wait", x(delivery.arrivedMs), x(waitEnd), "waiting", {}));
    }
    delivery.runs.forEach((run, i) => {
      const end = run.endMs ?? nowMs;
      const classes = ["tl-run", `inst-${run.instance ?? "none"}`];
      if (run.endMs === null) classes.push("open");
      if (run.attempt > 1) classes.push("recovered");
      if (run.cut) classes.push("cut");
      bars.push(
        bar(classes.join(" "), x(run.startMs), x(end), runLabel(run), {
          "lock-key": lockKey,
          "delivery-key": delivery.key,
          "start-ms": run.startMs,
          "end-ms": run.endMs ?? "",
          "skipped-count": run.skippedKeys.length,
          instance: run.instance ?? "",
          attempt: run.attempt ?? "",
          "interrupted-reason": run.after ?? "",
          cut: run.cut ?? "",
        }),
      );
      if (!run.cut || run.endMs === null) return;
      // The turn between its cut-off run and the next one: the lease lapsing, the next sweep.
      const settled = delivery.outcome && delivery.outcome !== "queued";
      const next = delivery.runs[i + 1]?.startMs ?? (settled ? delivery.settledMs : nowMs);
      const title = "waiting for another instance to pick the turn up";
      if (next - run.endMs > 40)
        bars.push(bar("tl-wait recovering", x(run.endMs), x(next), title, {}));
      bars.push(
        `<span class="tl-end killed" style="left:${x(run.endMs)}%" title="${escape(`instance ${run.instance} ${run.cut === "killed" ? "killed" : "shut down"}: run cut off`)}">✕</span>`,
      );
    });
    const folded = this.foldedRun(delivery);
    if (folded) {
      // The run that read this message as context.skipped, drawn on this message's row too.
      const into = this.textOf(delivery.skippedInto);
      const title = `read by the run for ${into ? quote(into) : "a later message"}`;
      bars.push(bar("tl-folded", x(folded.startMs), x(folded.endMs ?? nowMs), title, {}));
    }
    bars.push(
      `<span class="tl-arrive" style="left:${x(delivery.arrivedMs)}%" title="arrived"></span>`,
    );
    const outcome = this.describe(delivery);
    if (delivery.skippedInto) {
      bars.push(
        `<span class="tl-end skipped" style="left:${x(delivery.skippedAtMs)}%" title="${escape(outcome.text)}">↳</span>`,
      );
    } else if (
      ["dropped-lock-conflict", "expired", "preempted", "error"].includes(delivery.outcome)
    ) {
      bars.push(
        `<span class="tl-end dropped" style="left:${x(delivery.settledMs)}%" title="${escape(outcome.text)}">✕</span>`,
      );
    }
    const via = delivery.receivedBy
      ? `<span class="tl-via inst-${escape(delivery.receivedBy)}" title="delivered to instance ${escape(delivery.receivedBy)}">${escape(delivery.receivedBy)}</span>`
      : "";
    return `<div class="tl-row" data-delivery-key="${escape(delivery.key)}" data-outcome="${escape(delivery.outcome ?? "")}" data-skipped-into="${escape(delivery.skippedInto ?? "")}">
      <div class="tl-label" title="${escape(text)}">${via}${escape(quote(text))}</div>
      <div class="tl-track">${bars.join("")}</div>
      <div class="tl-outcome ${outcome.tone}">${escape(outcome.text)}</div>
    </div>`;
  }

  /** The run a skipped delivery was folded into, if it is still in view. */
  foldedRun(delivery) {
    if (!delivery.skippedInto) return undefined;
    const target = this.deliveries.get(delivery.skippedInto);
    return target?.runs.find((run) => run.skippedKeys.includes(delivery.key));
  }

  describe(delivery) {
    if (delivery.skippedInto) {
      const into = this.textOf(delivery.skippedInto);
      return { tone: "skipped", text: `skipped into ${into ? quote(into) : "a later run"}` };
    }
    const last = delivery.runs.at(-1);
    switch (delivery.outcome) {
      case "handled":
        if (!last?.instance) return { tone: "ok", text: "answered" };
        return {
          tone: "ok",
          text: `answered by ${last.instance}${last.attempt > 1 ? ` on attempt ${last.attempt}` : ""}`,
        };
      case "abandoned":
        return { tone: "bad", text: "abandoned: interrupted too often" };
      case "dropped-lock-conflict":
        return { tone: "bad", text: "dropped: lock held" };
      case "expired":
        return { tone: "bad", text: "expired in the queue" };
      case "preempted":
        return { tone: "bad", text: "stopped (restart or lease lost)" };
      case "error":
        return { tone: "bad", text: "handler failed" };
      case "ignored":
        return { tone: "muted", text: "ignored: no handler" };
      case "duplicate":
        return { tone: "muted", text: "duplicate" };
      case "queued":
        if (delivery.reason?.includes("handed back")) {
          return { tone: "wait", text: "handed back; waiting for another instance" };
        }
        if (delivery.reason?.includes("another instance")) {
          return { tone: "wait", text: "queued; the other instance holds the lock" };
        }
        return { tone: "wait", text: "left in the queue" };
      case undefined:
        if (last?.endMs === null) {
          return { tone: "run", text: last.instance ? `running on ${last.instance}…` : "running…" };
        }
        if (last?.cut) {
          return { tone: "bad", text: `${last.instance} killed; waiting for the other instance` };
        }
        return { tone: "wait", text: "waiting…" };
      default:
        return { tone: "muted", text: delivery.outcome };
    }
  }
}

/** E.g. `B · attempt 2 · after lease expired · +1 skipped`. */
function runLabel(run) {
  const parts = [run.instance ?? "running"];
  if (run.attempt !== undefined) parts.push(`attempt ${run.attempt}`);
  if (run.after) parts.push(`after ${AFTER[run.after] ?? run.after}`);
  if (run.skippedKeys.length) parts.push(`+${run.skippedKeys.length} skipped`);
  if (run.cut) parts.push(run.cut === "killed" ? "killed" : "handed back");
  return parts.join(" · ");
}

function bar(className, left, right, title, data) {
  const attributes = Object.entries(data)
    .map(([name, value]) => ` data-${name}="${escape(String(value))}"`)
    .join("");
  const width = Math.max(right - left, 0.4);
  return `<span class="tl-bar ${className}" style="left:${left}%;width:${width}%" title="${escape(title)}"${attributes}><span>${escape(title)}</span></span>`;
}

function ticks(startMs, endMs, origin, x) {
  const step = TICK_STEPS_MS.find((ms) => (endMs - startMs) / ms <= 8) ?? 300_000;
  const out = [];
  for (let t = origin; t <= endMs; t += step) {
    const seconds = (t - origin) / 1_000;
    out.push(`<span class="tl-tick" style="left:${x(t)}%">${Number(seconds.toFixed(2))} s</span>`);
  }
  return out.join("");
}

function quote(text) {
  return `“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”`;
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
