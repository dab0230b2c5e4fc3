import { AdmissionRejectedError } from "../errors/index.js";

/** Limits of {@link AdmissionBound}. */
export interface AdmissionLimits {
  /** Admitted-but-unfinished deliveries per instance. */
  readonly maxDetached: number;
  /** The same per (adapter, tenant); a ceiling, not a reservation. `undefined`: no per-tenant cap. */
  readonly maxDetachedPerTenant: number | undefined;
  /** The `Retry-After` hint given with a rejection. */
  readonly retryAfterMs: number;
}

/** Proof of admission. `release()` is idempotent: only the first call frees the slot. */
export interface Permit {
  release(): void;
}

/** Who a delivery belongs to, for the per-tenant cap. */
export interface AdmissionScope {
  readonly adapter: string;
  /** The installation (workspace, team, bot); `undefined` counts under the adapter alone. */
  readonly tenant?: string | undefined;
}

/**
 * Bounds the deliveries one instance has admitted but not finished (DESIGN §7.1). A delivery
 * holds its permit from admission until its work — handler, drain and lock release, or its wait
 * as a queued, debouncing or slot-waiting message — has really ended. At the cap, `admit` throws
 * `AdmissionRejectedError` before the caller writes anything, so the platform's retry is
 * processed once capacity frees. Idle tenants leave no entry behind.
 */
export class AdmissionBound {
  private inUseCount = 0;
  private readonly perTenant = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** Admits one delivery or throws `AdmissionRejectedError` (scope `instance` or `tenant`). */
  admit(scope: AdmissionScope): Permit {
    const { maxDetached, maxDetachedPerTenant, retryAfterMs } = this.limits;
    if (this.inUseCount >= maxDetached) {
      throw new AdmissionRejectedError(
        "instance",
        retryAfterMs,
        `this instance has ${this.inUseCount} deliveries in flight (maxDetached ${maxDetached})`,
        { step: `admit ${scope.adapter} delivery` },
      );
    }
    const tenantKey = tenantKeyOf(scope);
    const tenantCount = this.perTenant.get(tenantKey) ?? 0;
    if (maxDetachedPerTenant !== undefined && tenantCount >= maxDetachedPerTenant) {
      throw new AdmissionRejectedError(
        "tenant",
        retryAfterMs,
        `tenant has ${tenantCount} deliveries in flight (maxDetachedPerTenant ${maxDetachedPerTenant})`,
        { step: `admit ${scope.adapter} delivery` },
      );
    }
    this.inUseCount += 1;
    this.perTenant.set(tenantKey, tenantCount + 1);
    return new AdmissionPermit(this.free, tenantKey);
  }

  /** Frees the slot of one permit; called once per permit, by {@link AdmissionPermit}. */
  private readonly free = (tenantKey: string): void => {
    this.inUseCount -= 1;
    const left = (this.perTenant.get(tenantKey) ?? 1) - 1;
    if (left <= 0) this.perTenant.delete(tenantKey);
    else this.perTenant.set(tenantKey, left);
  };

  /** The `Retry-After` hint this bound gives with a rejection. */
  get retryAfterMs(): number {
    return this.limits.retryAfterMs;
  }

  /** Deliveries admitted and not yet released. */
  get inUse(): number {
    return this.inUseCount;
  }

  /** Tenants with at least one delivery in flight. */
  get activeTenants(): number {
    return this.perTenant.size;
  }

  /** Deliveries in flight for one tenant. */
  inUseBy(scope: AdmissionScope): number {
    return this.perTenant.get(tenantKeyOf(scope)) ?? 0;
  }
}

/** One admitted delivery's slot; only the first `release()` frees it. */
class AdmissionPermit implements Permit {
  private released = false;

  constructor(
    private readonly free: (tenantKey: string) => void,
    private readonly tenantKey: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.free(this.tenantKey);
  }
}

function tenantKeyOf(scope: AdmissionScope): string {
  // The adapter name's length first keeps the pair injective whatever characters the names
  // contain: it says where the adapter ends and the tenant (if any, after a `/`) begins.
  const name = String(scope.adapter);
  const adapter = `${name.length}:${name}`;
  return scope.tenant === undefined ? adapter : `${adapter}/${scope.tenant}`;
}
