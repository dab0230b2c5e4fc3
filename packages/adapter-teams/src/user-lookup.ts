import type { Logger, StateAdapter, UserInfo } from "@baton/core";
import type { TeamsGraph } from "./graph/client.js";
import { userFromGraph } from "./graph/user.js";
import { storedUserReference } from "./proactive.js";

/**
 * The Graph profile of `userId`, through the Entra object id stored when the user last wrote to
 * the bot. Null when no id is stored or Graph refuses; a refusal is logged, never thrown, since
 * many tenants do not grant the `User.Read.All` permission Graph needs.
 */
export async function lookupTeamsUser(
  deps: {
    readonly state: StateAdapter;
    readonly graph: (tenantId: string | undefined) => TeamsGraph;
    readonly appTenantId: string | undefined;
    readonly logger: () => Logger;
  },
  userId: string,
): Promise<UserInfo | null> {
  const reference = await storedUserReference(deps.state, userId);
  if (reference?.aadObjectId === undefined) return null;
  const graph = deps.graph(reference.tenantId ?? deps.appTenantId);
  try {
    return userFromGraph(userId, await graph.getUser(reference.aadObjectId));
  } catch (error) {
    deps.logger().warn("teams: graph user lookup failed", { userId, error });
    return null;
  }
}
