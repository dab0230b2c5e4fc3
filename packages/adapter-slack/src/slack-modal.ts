import type { ModalElement } from "@baton/core";
import type { SlackApi } from "./api.js";
import { slackViewFor } from "./modals.js";

type Json = Record<string, unknown>;

/** Opens `modal` for the user whose interaction carried `triggerId` (`views.open`). */
export async function openSlackModal(
  api: SlackApi,
  triggerId: string,
  modal: ModalElement,
  contextId?: string,
): Promise<{ viewId: string }> {
  const answer = await api.call("views.open", {
    trigger_id: triggerId,
    view: slackViewFor(modal, contextId),
  });
  return { viewId: String((answer.view as Json | undefined)?.id ?? "") };
}

/** Replaces the open view `viewId` with `modal` (`views.update`). */
export async function updateSlackModal(
  api: SlackApi,
  viewId: string,
  modal: ModalElement,
  contextId?: string,
): Promise<{ viewId: string }> {
  const answer = await api.call("views.update", {
    view_id: viewId,
    view: slackViewFor(modal, contextId),
  });
  return { viewId: String((answer.view as Json | undefined)?.id ?? viewId) };
}
