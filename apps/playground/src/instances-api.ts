import { jsonResponse as json } from "@baton/adapter-web";
import {
  type BotRuntime,
  type DeliverTo,
  INSTANCE_NAMES,
  type InstanceName,
  InstanceStateError,
  type InstancesView,
} from "./bot-runtime.js";

/** The routes of {@link instancesEndpoint}, under this prefix. */
export const INSTANCES_PATH = "/api/instances";

const ACTIONS = ["kill", "shutdown", "restart"] as const;
type Action = (typeof ACTIONS)[number];

/**
 * The instance controls:
 * - `GET /api/instances` — the instances, their status and where messages go;
 * - `POST /api/instances/{A|B}/kill` — stop it dead (a simulated SIGKILL);
 * - `POST /api/instances/{A|B}/shutdown` — shut it down gracefully (turns handed back);
 * - `POST /api/instances/{A|B}/restart` — start a fresh `Chat` for a killed or stopped one;
 * - `POST /api/instances/route` with `{ "deliverTo": "alternate" | "A" | "B" }`.
 *
 * Each answers `{ ok: true, ...view }`; an action that does not fit the instance's status
 * (killing a killed one) answers 409 with the reason. Open pages learn of every change through
 * the timeline stream (`instances` events).
 */
export async function instancesEndpoint(request: Request, runtime: BotRuntime): Promise<Response> {
  const path = new URL(request.url).pathname.slice(INSTANCES_PATH.length);
  if (path === "" || path === "/") {
    if (request.method !== "GET") return json(405, { ok: false, error: "use GET" });
    return ok(runtime.view);
  }
  if (request.method !== "POST") return json(405, { ok: false, error: "use POST" });
  if (path === "/route") return route(request, runtime);
  const [, name, action] = path.split("/");
  if (!INSTANCE_NAMES.includes(name as InstanceName) || !ACTIONS.includes(action as Action)) {
    return json(404, {
      ok: false,
      error: `use ${INSTANCES_PATH}/{${INSTANCE_NAMES.join("|")}}/{${ACTIONS.join("|")}}`,
    });
  }
  try {
    return ok(await runtime[action as Action](name as InstanceName));
  } catch (error) {
    if (error instanceof InstanceStateError) return json(409, { ok: false, error: error.message });
    throw error;
  }
}

async function route(request: Request, runtime: BotRuntime): Promise<Response> {
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return json(400, { ok: false, error: 'send JSON: { "deliverTo": "alternate" | "A" | "B" }' });
  }
  const deliverTo = (input as { deliverTo?: unknown } | null)?.deliverTo;
  const allowed: readonly unknown[] = ["alternate", ...INSTANCE_NAMES];
  if (!allowed.includes(deliverTo)) {
    return json(400, { ok: false, error: 'deliverTo must be "alternate", "A" or "B"' });
  }
  return ok(runtime.route(deliverTo as DeliverTo));
}

function ok(view: InstancesView): Response {
  return json(200, { ok: true, ...view });
}
