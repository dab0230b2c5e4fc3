/**
 * A path in the gate tree: `[]` is every installation, `[adapter]` one adapter (its adapter-wide
 * installation and every tenant under it), `[adapter, tenant]` one tenant's installation.
 */
export type GatePath = readonly string[];

/** One request for a share or for the exclusive hold of a node; decided exactly once. */
export interface GateWaiter {
  /** `waiting` until granted or cancelled; each happens at most once and excludes the other. */
  state: "waiting" | "granted" | "cancelled";
  readonly exclusive: boolean;
  /** Who asked: exclusive requests of one origin (one turn) never conflict with each other. */
  readonly origin: object;
  /** Called synchronously, once, when a queued request is granted later. */
  readonly onGrant: () => void;
}

interface GateNode {
  readonly key: string;
  readonly parent: GateNode | undefined;
  /** Made when the first child is: most nodes (tenants, and adapters without tenants) have none. */
  children: Map<string, GateNode> | undefined;
  /** Shares held on this node: one per turn (or exclusive action below) passing through it. */
  shared: number;
  /** The exclusive request that holds the node, if any. */
  holder: GateWaiter | undefined;
  readonly exclusiveQueue: GateWaiter[];
  readonly sharedQueue: GateWaiter[];
}

/**
 * The counting core of the turn gate: a tree of nodes (every installation → adapter → tenant),
 * each a gate with shares and a FIFO of exclusive requests. All operations are synchronous, so
 * every decision — grant or cancel — is made once, in one step, with nothing interleaving.
 *
 * - A share request passes when no exclusive request holds or waits on the node (writer
 *   preference: a waiting exclusive action closes the gate), or when `bypass` is set (the caller
 *   already holds a live share there, so making it wait would deadlock on itself).
 * - An exclusive request is granted, in FIFO order, once the node has no share and no holder.
 * - Idle nodes are dropped, so tenants that come and go leave nothing behind; a path that is
 *   needed again is recreated empty, which is the same state.
 */
export class GateTree {
  private readonly root: GateNode = newNode("", undefined);

  /**
   * Asks for one share of the node at `path`. Returns a waiter already `granted` (the share is
   * counted) or `waiting` (queued; `onGrant` runs when it is counted).
   */
  requestShare(path: GatePath, bypass: boolean, origin: object, onGrant: () => void): GateWaiter {
    const node = this.nodeAt(path);
    const waiter: GateWaiter = { state: "waiting", exclusive: false, origin, onGrant };
    if (bypass || (!node.holder && node.exclusiveQueue.length === 0)) {
      node.shared += 1;
      waiter.state = "granted";
      return waiter;
    }
    node.sharedQueue.push(waiter);
    return waiter;
  }

  /**
   * What {@link requestShare} on every node from the root down to `path` does when all of them
   * are open, in one pass: when no node on the way is held or awaited by an exclusive request,
   * counts one share on each and returns true; otherwise changes nothing and returns false (the
   * caller then asks step by step, and waits).
   */
  shareAlongIfOpen(path: GatePath): boolean {
    let node: GateNode | undefined = this.root;
    for (let depth = 0; node; depth += 1) {
      if (node.holder || node.exclusiveQueue.length > 0) return false;
      if (depth === path.length) break;
      // A node not there yet is open, and so is everything below it.
      node = node.children?.get(path[depth] as string);
    }
    let current = this.root;
    current.shared += 1;
    for (const key of path) {
      current = childOf(current, key);
      current.shared += 1;
    }
    return true;
  }

  /** Counts a share without asking: a turn taking back the share it lent to its own upgrade. */
  forceShare(path: GatePath): void {
    this.nodeAt(path).shared += 1;
  }

  /** Gives one share back and lets waiting requests in. */
  releaseShare(path: GatePath): void {
    const node = this.nodeAt(path);
    node.shared = Math.max(0, node.shared - 1);
    this.pump(node);
  }

  /**
   * Asks for the exclusive hold of the node at `path`: granted at once when the node is idle,
   * otherwise queued behind earlier exclusive requests until its shares drain.
   */
  requestExclusive(path: GatePath, origin: object, onGrant: () => void): GateWaiter {
    const node = this.nodeAt(path);
    const waiter: GateWaiter = { state: "waiting", exclusive: true, origin, onGrant };
    if (!node.holder && node.exclusiveQueue.length === 0 && node.shared === 0) {
      node.holder = waiter;
      waiter.state = "granted";
      return waiter;
    }
    node.exclusiveQueue.push(waiter);
    return waiter;
  }

  /** Ends the exclusive hold of the node at `path` and reopens it (or hands it to the next). */
  releaseExclusive(path: GatePath): void {
    const node = this.nodeAt(path);
    node.holder = undefined;
    this.pump(node);
  }

  /**
   * Withdraws a waiting request. Returns false, changing nothing, when it was already granted or
   * cancelled: the caller then owns what was granted.
   */
  cancel(path: GatePath, waiter: GateWaiter): boolean {
    if (waiter.state !== "waiting") return false;
    waiter.state = "cancelled";
    const node = this.nodeAt(path);
    const queue = waiter.exclusive ? node.exclusiveQueue : node.sharedQueue;
    const index = queue.indexOf(waiter);
    if (index >= 0) queue.splice(index, 1);
    // A withdrawn exclusive request may have been all that kept the gate closed.
    this.pump(node);
    return true;
  }

  /**
   * True when an exclusive request of another origin holds or waits on the node at `path`, on an
   * ancestor (which closes this node too) or on a descendant (which holds a share here).
   */
  hasForeignExclusive(path: GatePath, origin: object): boolean {
    const foreign = (node: GateNode) =>
      (node.holder !== undefined && node.holder.origin !== origin) ||
      node.exclusiveQueue.some((waiter) => waiter.origin !== origin);
    let node: GateNode | undefined = this.root;
    for (const key of path) {
      if (foreign(node)) return true;
      node = node.children?.get(key);
      if (!node) return false;
    }
    const stack = [node];
    for (let next = stack.pop(); next; next = stack.pop()) {
      if (foreign(next)) return true;
      if (next.children) stack.push(...next.children.values());
    }
    return false;
  }

  /** Shares currently counted on the node at `path` (0 for a node that does not exist). */
  sharesAt(path: GatePath): number {
    return this.find(path)?.shared ?? 0;
  }

  /** True when the node at `path` is held or awaited by an exclusive request. */
  isClosed(path: GatePath): boolean {
    const node = this.find(path);
    return node !== undefined && (node.holder !== undefined || node.exclusiveQueue.length > 0);
  }

  /** True when nothing is held or waiting anywhere: every gate is open and empty. */
  get idle(): boolean {
    const root = this.root;
    return (
      (root.children?.size ?? 0) === 0 &&
      root.shared === 0 &&
      !root.holder &&
      root.exclusiveQueue.length === 0 &&
      root.sharedQueue.length === 0
    );
  }

  private find(path: GatePath): GateNode | undefined {
    let node: GateNode | undefined = this.root;
    for (const key of path) node = node?.children?.get(key);
    return node;
  }

  private nodeAt(path: GatePath): GateNode {
    let node = this.root;
    for (const key of path) node = childOf(node, key);
    return node;
  }

  /** Grants what the node's state now allows, then drops the node if it became idle. */
  private pump(node: GateNode): void {
    if (!node.holder) {
      const head = node.exclusiveQueue[0];
      if (head) {
        if (node.shared === 0) {
          node.exclusiveQueue.shift();
          node.holder = head;
          grant(head);
        }
      } else {
        const admitted = node.sharedQueue.splice(0);
        node.shared += admitted.length;
        for (const waiter of admitted) grant(waiter);
      }
    }
    this.prune(node);
  }

  private prune(node: GateNode): void {
    let current: GateNode | undefined = node;
    while (current?.parent && isIdle(current)) {
      current.parent.children?.delete(current.key);
      current = current.parent;
    }
  }
}

/** The child of `node` under `key`, made (empty) when it is not there. */
function childOf(node: GateNode, key: string): GateNode {
  node.children ??= new Map();
  let child = node.children.get(key);
  if (!child) {
    child = newNode(key, node);
    node.children.set(key, child);
  }
  return child;
}

function newNode(key: string, parent: GateNode | undefined): GateNode {
  return {
    key,
    parent,
    children: undefined,
    shared: 0,
    holder: undefined,
    exclusiveQueue: [],
    sharedQueue: [],
  };
}

function isIdle(node: GateNode): boolean {
  return (
    node.shared === 0 &&
    !node.holder &&
    node.exclusiveQueue.length === 0 &&
    node.sharedQueue.length === 0 &&
    (node.children?.size ?? 0) === 0
  );
}

function grant(waiter: GateWaiter): void {
  waiter.state = "granted";
  waiter.onGrant();
}
