import {
  type AdapterPostableMessage,
  type CardElement,
  isCardElement,
  ValidationError,
} from "@baton/core";
import type { TeamsOutboundActivity } from "./api.js";
import { ADAPTIVE_CARD_CONTENT_TYPE, cardToAdaptiveCard, cardToFallbackText } from "./cards.js";
import type { TeamsFormatConverter } from "./format.js";

function cardOf(
  message: AdapterPostableMessage,
): { card: CardElement; fallbackText?: string } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("card" in message) return { card: message.card, fallbackText: message.fallbackText };
  return isCardElement(message) ? { card: message } : undefined;
}

/**
 * The message activity for a postable message, without its files: text in Teams' markdown
 * (`textFormat: markdown`, `<at>` mentions), or a card as an Adaptive Card attachment whose
 * fallback text is the activity's `summary` (what notifications and older clients show). Blank
 * text is refused with a `ValidationError` — unless `withFiles` says attachments follow, when
 * the message is the files alone.
 */
export function activityForPost(
  message: AdapterPostableMessage,
  converter: TeamsFormatConverter,
  withFiles = false,
): TeamsOutboundActivity {
  const card = cardOf(message);
  if (card !== undefined) {
    const summary = card.fallbackText ?? cardToFallbackText(card.card);
    return {
      type: "message",
      summary,
      attachments: [
        { contentType: ADAPTIVE_CARD_CONTENT_TYPE, content: cardToAdaptiveCard(card.card) },
      ],
    } as unknown as TeamsOutboundActivity;
  }
  const text = converter.renderPostable(message as never);
  if (text.trim() === "") {
    if (withFiles) return { type: "message" } as TeamsOutboundActivity;
    throw new ValidationError("a Teams message needs text", { step: "post to teams" });
  }
  return { type: "message", text, textFormat: "markdown" } as unknown as TeamsOutboundActivity;
}
