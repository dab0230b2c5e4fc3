import type { ResolvedTeamsOptions } from "./options.js";

/**
 * The Teams SDK's credential options for a resolved config (upstream's `toAppOptions`): a token
 * factory wins over the secret, a managed identity replaces it, multi-tenant apps send no tenant.
 */
export function toAppOptions(options: ResolvedTeamsOptions) {
  return {
    clientId: options.appId,
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.token === undefined && options.appPassword !== undefined
      ? { clientSecret: options.appPassword }
      : {}),
    ...(options.appTenantId !== undefined ? { tenantId: options.appTenantId } : {}),
    ...(options.managedIdentityClientId !== undefined
      ? { managedIdentityClientId: options.managedIdentityClientId }
      : {}),
  };
}
