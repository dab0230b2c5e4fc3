import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveTeamsOptions, type TeamsAdapterConfig, toAppOptions } from "../src/index.js";

/** Upstream's `toAppOptions(config)`: Baton resolves the config first, then maps it. */
const appOptionsOf = (config: TeamsAdapterConfig) => toAppOptions(resolveTeamsOptions(config));

afterEach(() => {
  vi.unstubAllEnvs();
});

// Ported from upstream packages/adapter-teams/src/config.test.ts (titles verbatim).
describe("toAppOptions", () => {
  it("forwards a custom token factory to the Teams SDK", () => {
    const token = async (_scope: string | string[], _tenantId?: string) => "custom-access-token";
    const options = appOptionsOf({ appId: "test-client-id", appTenantId: "test-tenant-id", token });
    expect(options.token).toBe(token);
    expect(options.clientId).toBe("test-client-id");
    expect(options.tenantId).toBe("test-tenant-id");
  });

  it("omits clientSecret when a token factory is provided", () => {
    const options = appOptionsOf({
      appId: "test-client-id",
      appPassword: "should-be-ignored",
      token: async () => "custom-access-token",
    });
    expect(options.clientSecret).toBeUndefined();
  });

  it("ignores TEAMS_APP_PASSWORD env var when a token factory is provided", () => {
    vi.stubEnv("TEAMS_APP_PASSWORD", "env-secret");
    const token = async () => "custom-access-token";
    const options = appOptionsOf({ appId: "test-client-id", token });
    expect(options.clientSecret).toBeUndefined();
    expect(options.token).toBe(token);
  });

  it("omits token when not provided", () => {
    const options = appOptionsOf({ appId: "test-client-id", appPassword: "test-secret" });
    expect(options.token).toBeUndefined();
    expect(options.clientSecret).toBe("test-secret");
  });

  it("drops the tenant for multi-tenant apps and maps federated auth to a managed identity", () => {
    vi.stubEnv("TEAMS_APP_TENANT_ID", "env-tenant");
    const options = appOptionsOf({
      appId: "id",
      appType: "MultiTenant",
      federated: { clientId: "mi-client" },
      appPassword: "ignored",
    });
    expect(options).toEqual({ clientId: "id", managedIdentityClientId: "mi-client" });
  });
});
