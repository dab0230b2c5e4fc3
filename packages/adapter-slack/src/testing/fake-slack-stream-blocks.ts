type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function plainText(value: unknown, maxChars: number): boolean {
  return (
    isObject(value) &&
    value.type === "plain_text" &&
    typeof value.text === "string" &&
    value.text !== "" &&
    value.text.length <= maxChars
  );
}

function feedbackButton(value: unknown): boolean {
  return (
    isObject(value) &&
    plainText(value.text, 75) &&
    typeof value.value === "string" &&
    value.value !== "" &&
    value.value.length <= 2_000
  );
}

/** Slack's rules for a `context_actions` element: feedback buttons or an icon button. */
function contextActionsElement(element: unknown): boolean {
  if (!isObject(element)) return false;
  const actionId = element.action_id;
  if (actionId !== undefined && (typeof actionId !== "string" || actionId.length > 255)) {
    return false;
  }
  if (element.type === "feedback_buttons") {
    return feedbackButton(element.positive_button) && feedbackButton(element.negative_button);
  }
  if (element.type === "icon_button") {
    return typeof element.icon === "string" && plainText(element.text, 75);
  }
  return false;
}

/**
 * True when `blocks` is what `chat.stopStream` accepts: at most 50 blocks, each an object with
 * a `type`; a `context_actions` block holds 1 to 5 feedback-button or icon-button elements with
 * plain-text labels of at most 75 characters. Slack answers `invalid_blocks` otherwise.
 */
export function validStreamStopBlocks(blocks: unknown): boolean {
  if (!Array.isArray(blocks) || blocks.length > 50) return false;
  return blocks.every((block) => {
    if (!isObject(block) || typeof block.type !== "string") return false;
    if (block.type !== "context_actions") return true;
    const elements = block.elements;
    return (
      Array.isArray(elements) &&
      elements.length >= 1 &&
      elements.length <= 5 &&
      elements.every(contextActionsElement)
    );
  });
}
