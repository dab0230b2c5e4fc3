import { createBurstStrategy } from "./burst-strategy.js";
import { createConcurrentStrategy } from "./concurrent-strategy.js";
import { createDebounceStrategy } from "./debounce-strategy.js";
import { createDropStrategy } from "./drop-strategy.js";
import type { LocalHolders } from "./local-holders.js";
import { createQueueStrategy } from "./queue-strategy.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/** The strategy named in `context.settings.strategy`. */
export function createStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  switch (context.settings.strategy) {
    case "drop":
      return createDropStrategy(context, holders);
    case "queue":
      return createQueueStrategy(context, holders);
    case "debounce":
      return createDebounceStrategy(context, holders);
    case "burst":
      return createBurstStrategy(context, holders);
    case "concurrent":
      return createConcurrentStrategy(context, holders);
  }
}
