import { type GateScope, pathOf, prefixesOf } from "./gate-frames.js";
import type { GatePath } from "./gate-tree.js";

/** An installation's tree path and the prefixes a turn of it takes a share on, top-down. */
export interface TurnPlan {
  readonly path: GatePath;
  readonly prefixes: readonly GatePath[];
}

/** How many installations' plans are remembered before all are forgotten. */
const MAX_REMEMBERED_PLANS = 1_024;

/**
 * The validated tree path of each installation a turn runs for, and its prefixes, remembered
 * for the next turn of that installation, so a turn builds no arrays. The memory is bounded (it
 * is cleared when full), so installations that come and go leave nothing behind for long.
 */
export class TurnPlans {
  private readonly plans = new Map<string, Map<string | undefined, TurnPlan>>();
  private count = 0;

  /** The plan of `scope`; throws a `ValidationError` for a malformed scope (never remembered). */
  of(scope: Exclude<GateScope, "all">): TurnPlan {
    const byTenant = this.plans.get(scope?.adapter);
    const known = byTenant?.get(scope.tenant);
    if (known) return known;
    const path = pathOf(scope, "run turn");
    const plan = { path, prefixes: prefixesOf(path) };
    if (this.count >= MAX_REMEMBERED_PLANS) {
      this.plans.clear();
      this.count = 0;
    }
    let tenants = this.plans.get(scope.adapter);
    if (!tenants) {
      tenants = new Map();
      this.plans.set(scope.adapter, tenants);
    }
    tenants.set(scope.tenant, plan);
    this.count += 1;
    return plan;
  }
}
