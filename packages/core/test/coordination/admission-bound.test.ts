import { AdmissionRejectedError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { AdmissionBound } from "../../src/coordination/admission-bound.js";

const limits = { maxDetached: 3, maxDetachedPerTenant: 2, retryAfterMs: 1_500 };

describe("AdmissionBound", () => {
  it("admits up to maxDetached and then rejects with the instance scope and a retry hint", () => {
    const bound = new AdmissionBound({ ...limits, maxDetachedPerTenant: undefined });
    for (let i = 0; i < 3; i += 1) bound.admit({ adapter: "slack" });
    let rejection: unknown;
    try {
      bound.admit({ adapter: "slack" });
    } catch (error) {
      rejection = error;
    }
    expect(rejection).toBeInstanceOf(AdmissionRejectedError);
    expect(rejection).toMatchObject({
      scope: "instance",
      retryAfterMs: 1_500,
      code: "ADMISSION_REJECTED",
    });
    expect(bound.inUse).toBe(3);
  });

  it("caps one tenant without reserving anything for the others", () => {
    const bound = new AdmissionBound(limits);
    bound.admit({ adapter: "slack", tenant: "T1" });
    bound.admit({ adapter: "slack", tenant: "T1" });
    expect(() => bound.admit({ adapter: "slack", tenant: "T1" })).toThrow(/maxDetachedPerTenant 2/);
    bound.admit({ adapter: "slack", tenant: "T2" });
    expect(() => bound.admit({ adapter: "teams", tenant: "T9" })).toThrow(/maxDetached 3/);
  });

  it("treats the same tenant id on two adapters as two installations", () => {
    const bound = new AdmissionBound({ ...limits, maxDetachedPerTenant: 1 });
    bound.admit({ adapter: "slack", tenant: "T1" });
    expect(() => bound.admit({ adapter: "teams", tenant: "T1" })).not.toThrow();
  });

  it("releases each permit once however often release is called, and forgets idle tenants", () => {
    const bound = new AdmissionBound(limits);
    const first = bound.admit({ adapter: "slack", tenant: "T1" });
    const second = bound.admit({ adapter: "slack", tenant: "T1" });
    first.release();
    first.release();
    expect(bound.inUse).toBe(1);
    expect(bound.inUseBy({ adapter: "slack", tenant: "T1" })).toBe(1);
    second.release();
    expect(bound.inUse).toBe(0);
    expect(bound.activeTenants).toBe(0);
  });
});
