import { createFakeClock, createMockAdapter, createTestState } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import { NotSupportedError } from "../../src/errors/index.js";
import { Plan } from "../../src/runtime/plan.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";

async function setup(capabilities: Partial<AdapterCapabilities> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID });
  return { adapter, thread };
}

/** The mock with upstream's optional native plan methods, as a platform that shows task lists. */
async function nativeSetup(editObject = vi.fn().mockResolvedValue(undefined)) {
  const { adapter, thread } = await setup();
  const postObject = vi.fn().mockResolvedValue({ id: "plan-msg-1", threadId: THREAD_ID });
  Object.assign(adapter, { postObject, editObject });
  return { adapter, thread, postObject, editObject };
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("ThreadImpl", () => {
  describe("post with Plan", () => {
    it("should post fallback text when adapter does not support plans", async () => {
      const { thread, adapter } = await setup();
      const plan = new Plan({ initialMessage: "Starting..." });
      const result = await thread.post(plan);
      expect(result).toBe(plan);
      expect(adapter.callsOf("postMessage")[0]?.args).toEqual([
        THREAD_ID,
        "📋 Starting...\n🔄 Starting...",
      ]);
      expect(plan.title).toBe("Starting...");
      expect(plan.tasks).toHaveLength(1);
      expect(plan.tasks[0]?.status).toBe("in_progress");
      expect(plan.id).toBe("mock-msg-1");
      expect(plan.threadId).toBe(THREAD_ID);
    });

    it("should update via editMessage in fallback mode", async () => {
      const { thread, adapter } = await setup();
      const plan = new Plan({ initialMessage: "Starting..." });
      await thread.post(plan);
      const task = await plan.addTask({ title: "Task 1" });
      expect(task).not.toBeNull();
      expect(task?.title).toBe("Task 1");
      const edit = adapter.callsOf("editMessage")[0]?.args;
      expect(edit?.slice(0, 2)).toEqual([THREAD_ID, "mock-msg-1"]);
      expect(edit?.[2]).toContain("Task 1");
    });

    it("should complete plan via editMessage in fallback mode", async () => {
      const { thread, adapter } = await setup();
      const plan = new Plan({ initialMessage: "Starting..." });
      await thread.post(plan);
      await plan.addTask({ title: "Step 1" });
      await plan.complete({ completeMessage: "All done!" });
      expect(plan.title).toBe("All done!");
      for (const task of plan.tasks) expect(task.status).toBe("complete");
      const last = adapter.callsOf("editMessage").at(-1)?.args[2];
      expect(last).toBe("📋 All done!\n✅ Starting...\n✅ Step 1");
    });

    it("should call adapter postObject when supported", async () => {
      const { thread, adapter, postObject } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Working..." });
      await thread.post(plan);
      expect(postObject).toHaveBeenCalledWith(
        THREAD_ID,
        "plan",
        expect.objectContaining({
          title: "Working...",
          tasks: expect.arrayContaining([
            expect.objectContaining({ title: "Working...", status: "in_progress" }),
          ]),
        }),
      );
      expect(plan.id).toBe("plan-msg-1");
      expect(adapter.callsOf("postMessage")).toEqual([]);
    });

    it("should add tasks and call editObject", async () => {
      const { thread, editObject } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Starting" });
      await thread.post(plan);
      const task = await plan.addTask({
        title: "Fetch data",
        children: ["Call API", "Parse response"],
      });
      expect(task?.title).toBe("Fetch data");
      expect(task?.status).toBe("in_progress");
      expect(editObject).toHaveBeenCalledWith(THREAD_ID, "plan-msg-1", "plan", expect.any(Object));
      expect(plan.title).toBe("Fetch data");
      expect(plan.tasks).toHaveLength(2);
      const model = editObject.mock.calls[0]?.[3] as { tasks: { details?: unknown }[] };
      expect(model.tasks[1]?.details).toEqual(["Call API", "Parse response"]);
    });

    it("should update current task with output", async () => {
      const { thread, editObject } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Working" });
      await thread.post(plan);
      await plan.addTask({ title: "Step 1" });
      const updated = await plan.updateTask("Got result: 42");
      expect(updated?.title).toBe("Step 1");
      expect(editObject).toHaveBeenCalledTimes(2);
      const model = editObject.mock.calls[1]?.[3] as { tasks: { output?: unknown }[] };
      expect(model.tasks[1]?.output).toBe("Got result: 42");
    });

    it("should update a specific task by ID", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      const task1 = await plan.addTask({ title: "Step 1", autoCompletePrevious: false });
      const task2 = await plan.addTask({ title: "Step 2", autoCompletePrevious: false });
      const updated = await plan.updateTask({
        id: task1?.id,
        output: "Step 1 result",
        status: "complete",
      });
      expect(updated?.id).toBe(task1?.id);
      expect(updated?.status).toBe("complete");
      expect(plan.tasks.find((t) => t.id === task2?.id)?.status).toBe("in_progress");
    });

    it("should not auto-complete in_progress tasks when autoCompletePrevious is false", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "Parallel", autoCompletePrevious: false });
      expect(plan.tasks.map((t) => t.status)).toEqual(["in_progress", "in_progress"]);
    });

    it("should auto-complete all in_progress tasks when switching back to default addTask", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "A", autoCompletePrevious: false });
      await plan.addTask({ title: "B", autoCompletePrevious: false });
      await plan.addTask({ title: "C" });
      expect(plan.tasks.map((t) => t.status)).toEqual([
        "complete",
        "complete",
        "complete",
        "in_progress",
      ]);
    });

    it("should target the most recent in_progress task when updating without id", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "First", autoCompletePrevious: false });
      await plan.addTask({ title: "Second", autoCompletePrevious: false });
      expect((await plan.updateTask("out"))?.title).toBe("Second");
    });

    it("should return null when updating by non-existent ID", async () => {
      const { thread, editObject } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "Step 1" });
      expect(await plan.updateTask({ id: "non-existent-id", output: "nope" })).toBeNull();
      expect(editObject).toHaveBeenCalledTimes(1);
    });

    it("should still update last in_progress task when no ID provided", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "Step 1" });
      await plan.addTask({ title: "Step 2" });
      const updated = await plan.updateTask("Some output");
      expect(updated?.title).toBe("Step 2");
    });

    it("should complete plan and mark tasks done", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Starting" });
      await thread.post(plan);
      await plan.addTask({ title: "Task 1" });
      await plan.complete({ completeMessage: "All done!" });
      expect(plan.title).toBe("All done!");
      for (const task of plan.tasks) expect(task.status).toBe("complete");
    });

    it("should reset plan and start fresh", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "First run" });
      await thread.post(plan);
      await plan.addTask({ title: "Task A" });
      await plan.addTask({ title: "Task B" });
      expect(plan.tasks).toHaveLength(3);
      const newTask = await plan.reset({ initialMessage: "Second run" });
      expect(newTask?.title).toBe("Second run");
      expect(plan.title).toBe("Second run");
      expect(plan.tasks).toHaveLength(1);
      expect(plan.tasks[0]?.status).toBe("in_progress");
    });

    it("should return currentTask correctly", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      expect(plan.currentTask).toMatchObject({ title: "Start", status: "in_progress" });
      await plan.addTask({ title: "Step 2" });
      expect(plan.currentTask).toMatchObject({ title: "Step 2", status: "in_progress" });
      await plan.complete({ completeMessage: "Done" });
      expect(plan.currentTask).toMatchObject({ title: "Step 2", status: "complete" });
    });

    it("should handle various PlanContent formats in initialMessage", async () => {
      const { thread } = await nativeSetup();
      let plan = new Plan({ initialMessage: "Simple string" });
      await thread.post(plan);
      expect(plan.title).toBe("Simple string");
      plan = new Plan({ initialMessage: ["Line 1", "Line 2"] });
      await thread.post(plan);
      expect(plan.title).toBe("Line 1 Line 2");
      plan = new Plan({ initialMessage: "" });
      await thread.post(plan);
      expect(plan.title).toBe("Plan");
      plan = new Plan({ initialMessage: { markdown: "**Bold** plan" } });
      expect(plan.title).toBe("Bold plan");
    });

    it("should ensure sequential edits via queue", async () => {
      const gates = [deferred(), deferred(), deferred()];
      const order: number[] = [];
      let started = 0;
      const editObject = vi.fn().mockImplementation(async () => {
        const mine = started;
        started += 1;
        await gates[mine]?.promise;
        order.push(mine + 1);
      });
      const { thread } = await nativeSetup(editObject);
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      const all = Promise.all([
        plan.addTask({ title: "Task 1" }),
        plan.updateTask("Output 1"),
        plan.addTask({ title: "Task 2" }),
      ]);
      // Release the later edits first: a queue still finishes them in call order.
      gates[2]?.resolve();
      gates[1]?.resolve();
      await Promise.resolve();
      expect(started).toBe(1);
      gates[0]?.resolve();
      await all;
      expect(order).toEqual([1, 2, 3]);
    });

    it("should return null when calling addTask before post", async () => {
      const plan = new Plan({ initialMessage: "Not posted yet" });
      expect(await plan.addTask({ title: "Task 1" })).toBeNull();
    });

    it("should return null when calling updateTask before post", async () => {
      const plan = new Plan({ initialMessage: "Not posted yet" });
      expect(await plan.updateTask("some output")).toBeNull();
    });

    it("should return null when calling complete before post", async () => {
      const plan = new Plan({ initialMessage: "Not posted yet" });
      await plan.complete({ completeMessage: "Done" });
      expect(plan.tasks[0]?.status).toBe("in_progress");
      expect(plan.title).toBe("Not posted yet");
    });

    it("should propagate editObject errors from addTask", async () => {
      const { thread } = await nativeSetup(vi.fn().mockRejectedValue(new Error("rate limited")));
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await expect(plan.addTask({ title: "Task 1" })).rejects.toThrow("rate limited");
      expect(plan.tasks).toHaveLength(2);
    });

    it("should continue accepting edits after a failed edit", async () => {
      const editObject = vi
        .fn()
        .mockRejectedValueOnce(new Error("rate limited"))
        .mockResolvedValue(undefined);
      const { thread } = await nativeSetup(editObject);
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await expect(plan.addTask({ title: "Task 1" })).rejects.toThrow();
      await plan.addTask({ title: "Task 2" });
      expect(plan.tasks).toHaveLength(3);
      expect(editObject).toHaveBeenCalledTimes(2);
    });

    it("should set error status via updateTask", async () => {
      const { thread } = await nativeSetup();
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      await plan.addTask({ title: "Risky step" });
      await plan.updateTask({ status: "error", output: "Something failed" });
      expect(plan.currentTask?.status).toBe("error");
    });

    it("refuses updates to a text plan on an adapter without edits, with NotSupportedError", async () => {
      const { thread, adapter } = await setup({ editMessage: false });
      const plan = new Plan({ initialMessage: "Start" });
      await thread.post(plan);
      const error = await plan.addTask({ title: "Next" }).catch((e) => e);
      expect(error).toBeInstanceOf(NotSupportedError);
      expect((error as NotSupportedError).feature).toBe("editMessage");
      expect(adapter.callsOf("editMessage")).toEqual([]);
    });

    it("posts a plan in a channel through postChannelMessage when the adapter has it", async () => {
      const { thread, adapter } = await setup();
      const postChannelMessage = vi
        .fn()
        .mockResolvedValue({ id: "c-1", threadId: "mock:C123:c-1" });
      Object.assign(adapter, { postChannelMessage });
      const plan = await thread.channel.post(new Plan({ initialMessage: "Roll out" }));
      expect(postChannelMessage).toHaveBeenCalledWith("mock:C123", "📋 Roll out\n🔄 Roll out");
      expect(plan.threadId).toBe("mock:C123:c-1");
    });
  });
});
