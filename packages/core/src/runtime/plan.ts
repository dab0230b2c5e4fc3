import type { Root } from "mdast";
import { toString as plainTextOf } from "mdast-util-to-string";
import { parseMarkdown } from "../content/markdown/parse.js";
import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import { NotSupportedError } from "../errors/index.js";
import { callAdapter } from "./adapter-call.js";
import {
  POSTABLE_OBJECT,
  type PostableObject,
  type PostedObjectContext,
} from "./postable-object.js";

/** Where a plan's task stands. */
export type PlanTaskStatus = "pending" | "in_progress" | "complete" | "error";

/** A task as a plan reports it: a copy, so changing it changes nothing. */
export interface PlanTask {
  readonly id: string;
  readonly title: string;
  readonly status: PlanTaskStatus;
}

/** Text a plan's title or task is made from: text, lines joined by spaces, markdown or a tree. */
export type PlanContent = string | string[] | { markdown: string } | { ast: Root };

/** A task inside the model the adapter's `postObject` / `editObject` receive. */
export interface PlanModelTask {
  id: string;
  title: string;
  status: PlanTaskStatus;
  /** The latest output `updateTask` gave. */
  output?: unknown;
  /** Sub-steps given to `addTask({ children })`. */
  details?: unknown;
}

/** What a native plan shows: its title and tasks (upstream's `PlanModel`). */
export interface PlanModel {
  title: string;
  tasks: PlanModelTask[];
}

/** Options of `addTask`. */
export interface AddTaskOptions {
  title: PlanContent;
  /** Sub-steps shown under the task where the platform can. */
  children?: unknown;
  /** Default true: tasks in progress are marked complete as the new one starts. */
  autoCompletePrevious?: boolean;
}

/** What `updateTask` takes: output for the current task, or a change of one task. */
export type TaskUpdate = unknown | { id?: string; output?: unknown; status?: PlanTaskStatus };

interface Bound {
  readonly context: PostedObjectContext;
  readonly native: boolean;
  /** Edits run one after another in call order, whatever each one's latency. */
  chain: Promise<void>;
}

const STATUS_ICONS: Readonly<Record<PlanTaskStatus, string>> = {
  pending: "⬜",
  in_progress: "🔄",
  complete: "✅",
  error: "❌",
};

/**
 * A task list posted once and edited as work goes on (upstream's `Plan`): `thread.post(plan)`
 * shows it natively where the adapter has `postObject` and `editObject`, else as text (`📋
 * title`, then one `✅ / 🔄 / ❌ / ⬜ task` line each) edited in place. Before it is posted,
 * changes resolve `null` and send nothing. Edits are queued, so they reach the platform in call
 * order; a failed edit rejects its own call and the next edit still runs. On an adapter without
 * message edits the text fallback cannot be updated: changes reject with a `NotSupportedError`
 * (feature `editMessage`).
 */
export class Plan implements PostableObject {
  readonly $$typeof: typeof POSTABLE_OBJECT = POSTABLE_OBJECT;
  readonly kind = "plan";
  private model: PlanModel;
  private bound: Bound | undefined;

  constructor(options: { initialMessage?: PlanContent }) {
    this.model = freshModel(options?.initialMessage);
  }

  /** True when `adapter` can post and edit plans natively. */
  isSupported(adapter: Adapter): boolean {
    return typeof adapter.postObject === "function" && typeof adapter.editObject === "function";
  }

  getPostData(): PlanModel {
    return this.model;
  }

  getFallbackText(): string {
    const lines = [`📋 ${this.model.title || "Plan"}`];
    for (const task of this.model.tasks) lines.push(`${STATUS_ICONS[task.status]} ${task.title}`);
    return lines.join("\n");
  }

  onPosted(context: PostedObjectContext): void {
    this.bound = { context, native: this.isSupported(context.adapter), chain: Promise.resolve() };
  }

  /** The id of the message showing the plan; `""` before it is posted. */
  get id(): string {
    return this.bound?.context.messageId ?? "";
  }

  /** The thread the plan was posted in; `""` before it is posted. */
  get threadId(): string {
    return this.bound?.context.threadId ?? "";
  }

  get title(): string {
    return this.model.title;
  }

  get tasks(): PlanTask[] {
    return this.model.tasks.map(publicTask);
  }

  /** The latest task in progress, else the last task. */
  get currentTask(): PlanTask | null {
    const current = this.current();
    return current === undefined ? null : publicTask(current);
  }

  /** Starts a task (it becomes the title); `null` before the plan is posted. */
  async addTask(options: AddTaskOptions): Promise<PlanTask | null> {
    if (this.bound === undefined) return null;
    const title = contentText(options.title) || "Task";
    if (options.autoCompletePrevious ?? true) {
      for (const task of this.model.tasks)
        if (task.status === "in_progress") task.status = "complete";
    }
    const task: PlanModelTask = { id: crypto.randomUUID(), title, status: "in_progress" };
    if (options.children !== undefined) task.details = options.children;
    this.model.tasks.push(task);
    this.model.title = title;
    await this.edit();
    return publicTask(task);
  }

  /**
   * Gives the current task output, or changes one task by `id` (`output`, `status`); `null`
   * before the plan is posted or when no task has that id.
   */
  async updateTask(update?: TaskUpdate): Promise<PlanTask | null> {
    if (this.bound === undefined) return null;
    const change = isChange(update) ? update : undefined;
    const task = change?.id ? this.model.tasks.find((t) => t.id === change.id) : this.current();
    if (task === undefined) return null;
    if (change !== undefined) {
      if (change.output !== undefined) task.output = change.output;
      if (change.status !== undefined) task.status = change.status;
    } else if (update !== undefined) {
      task.output = update;
    }
    await this.edit();
    return publicTask(task);
  }

  /** Starts over with one task; `null` before the plan is posted. */
  async reset(options: { initialMessage?: PlanContent }): Promise<PlanTask | null> {
    if (this.bound === undefined) return null;
    this.model = freshModel(options?.initialMessage);
    await this.edit();
    const [first] = this.model.tasks;
    return first === undefined ? null : publicTask(first);
  }

  /** Marks every task in progress complete; `completeMessage` becomes the title. */
  async complete(options: { completeMessage?: PlanContent }): Promise<void> {
    if (this.bound === undefined) return;
    for (const task of this.model.tasks)
      if (task.status === "in_progress") task.status = "complete";
    this.model.title = contentText(options?.completeMessage) || this.model.title;
    await this.edit();
  }

  private current(): PlanModelTask | undefined {
    const tasks = this.model.tasks;
    for (let index = tasks.length - 1; index >= 0; index -= 1) {
      const task = tasks[index];
      if (task?.status === "in_progress") return task;
    }
    return tasks.at(-1);
  }

  private edit(): Promise<void> {
    const bound = this.bound;
    if (bound === undefined) return Promise.resolve();
    const { adapter, logger, messageId, threadId } = bound.context;
    const step = `edit plan ${messageId} in ${threadId}`;
    // The model and text are read when the edit runs, so a queued edit shows the latest state.
    const run = async () => {
      if (bound.native) {
        const { editObject } = adapter;
        if (typeof editObject !== "function") return;
        await callAdapter(
          adapter,
          step,
          () => editObject.call(adapter, threadId, messageId, this.kind, this.model),
          logger,
        );
        return;
      }
      if (!capabilitiesOf(adapter).editMessage) {
        throw new NotSupportedError(adapter.name, "editMessage", { step });
      }
      const text = this.getFallbackText();
      await callAdapter(
        adapter,
        step,
        () => adapter.editMessage(threadId, messageId, text),
        logger,
      );
    };
    const next = bound.chain.then(run, run);
    bound.chain = next.catch((error: unknown) => {
      logger.warn("plan edit failed", { adapter: adapter.name, step, error: String(error) });
    });
    return next;
  }
}

function freshModel(initial: PlanContent | undefined): PlanModel {
  const title = contentText(initial) || "Plan";
  return { title, tasks: [{ id: crypto.randomUUID(), title, status: "in_progress" }] };
}

function contentText(content: PlanContent | undefined): string {
  if (content === undefined || content === null) return "";
  if (Array.isArray(content)) return content.join(" ").trim();
  if (typeof content === "string") return content;
  if ("markdown" in content) return plainTextOf(parseMarkdown(content.markdown));
  if ("ast" in content) return plainTextOf(content.ast);
  return "";
}

function isChange(
  update: unknown,
): update is { id?: string; output?: unknown; status?: PlanTaskStatus } {
  return (
    typeof update === "object" &&
    update !== null &&
    ("id" in update || "output" in update || "status" in update)
  );
}

function publicTask(task: PlanModelTask): PlanTask {
  return { id: task.id, title: task.title, status: task.status };
}
