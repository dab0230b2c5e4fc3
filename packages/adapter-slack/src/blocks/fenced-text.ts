import { escapeSlackLiteral, truncateEscapedSlackText } from "./escape.js";
import { SLACK_LIMITS } from "./limits.js";
import type { SlackBlock } from "./render-options.js";

const fence = (body: string) => `\`\`\`\n${body}\n\`\`\``;

/**
 * A section showing `content` literally in a code block, for a table or chart Slack cannot draw
 * natively. Over Slack's 3 000 characters the content is cut with "…" inside the fence, so the
 * closing fence survives and the rest of the message is not swallowed by an open code block.
 */
export function fencedSlackSection(content: string): SlackBlock {
  const budget = SLACK_LIMITS.sectionText - fence("").length;
  const body = truncateEscapedSlackText(escapeSlackLiteral(content), budget);
  return { type: "section", text: { type: "mrkdwn", text: fence(body) } };
}
