import type { TeamsGraph } from "./client.js";

/**
 * One Graph client per tenant, made on first use: an app-only Graph token is issued for one
 * tenant, so a multi-tenant bot needs the token of the tenant the user belongs to.
 */
export function graphPerTenant(
  make: (tenantId: string | undefined) => TeamsGraph,
): (tenantId: string | undefined) => TeamsGraph {
  const clients = new Map<string | undefined, TeamsGraph>();
  return (tenantId) => {
    let client = clients.get(tenantId);
    if (client === undefined) {
      client = make(tenantId);
      clients.set(tenantId, client);
    }
    return client;
  };
}
