import { toModalElement } from "../content/jsx/index.js";
import { type ModalElement, validateModalElement } from "../content/modals/index.js";
import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { Logger } from "../contracts/logger.js";
import { AdapterError, isBatonError, NotSupportedError, ValidationError } from "../errors/index.js";
import type { OpenModal } from "./handler-registry.js";
import { type ModalContextRecord, type ModalContexts, newContextId } from "./modal-context.js";

/** What {@link modalOpener} needs from the runtime. */
export interface ModalOpenerDeps {
  readonly contexts: ModalContexts;
  readonly logger: Logger;
}

/**
 * The `openModal` of one action or slash-command event. It refuses early (before any State write)
 * when the event has no trigger id or the adapter has no `openModal`, stores where the modal came
 * from under a fresh context id, and hands the modal and that id to the adapter, which keeps the
 * id with the view (Slack: `private_metadata`) and passes it back with the submit.
 */
export function modalOpener(
  deps: ModalOpenerDeps,
  adapter: Adapter,
  triggerId: string | undefined,
  origin: Omit<ModalContextRecord, "callbackUrl">,
): OpenModal {
  return async (modal) => {
    if (typeof triggerId !== "string" || triggerId === "") {
      // Upstream's behaviour: some platforms (or a Home tab) give no trigger; nothing to open with.
      deps.logger.warn("cannot open a modal: the event carries no trigger id", {
        adapter: adapter.name,
      });
      return undefined;
    }
    if (!capabilitiesOf(adapter).modals || typeof adapter.openModal !== "function") {
      throw new NotSupportedError(adapter.name, "modals", { step: "open modal" });
    }
    const element = assertModal(modal);
    const contextId = newContextId();
    const record: ModalContextRecord =
      typeof element.callbackUrl === "string"
        ? { ...origin, callbackUrl: element.callbackUrl }
        : origin;
    await deps.contexts.store(adapter.name, contextId, record);
    try {
      return await adapter.openModal(triggerId, element, contextId);
    } catch (error) {
      if (isBatonError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new AdapterError(adapter.name, reason, { step: "open modal", cause: error });
    }
  };
}

function assertModal(modal: unknown): ModalElement {
  // A JSX <Modal> resolves to its element; a built modal comes back as it is.
  const candidate = toModalElement(modal);
  if (candidate === null) {
    throw new ValidationError("modal must be a modal element or a JSX <Modal>", {
      step: "open modal",
    });
  }
  // A modal written as an object literal gets the builders' checks too, so a bad field fails
  // here with its name rather than at the platform, after the trigger id may have expired.
  try {
    return validateModalElement(candidate);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.message, { step: "open modal", cause: error });
  }
}
