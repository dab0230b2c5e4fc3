import { divergencesOf } from "./divergence.js";

const RICH =
  "not built: upstream 4.38's Telegram 'rich messages' (the Bot API's rich message/draft endpoints with their own block model and a larger text limit) have no counterpart in @baton/adapter-telegram, which sends sendMessage with MarkdownV2 (issue 14); there is nothing to port these tests against";

/** `packages/adapter-telegram/src/*`: upstream's Telegram adapter. */
export const TELEGRAM_DIVERGENCES = [
  ...divergencesOf("packages/adapter-telegram/src/rich.test.ts", [
    { kind: "deferred", describe: ["Telegram rich messages"], reason: RICH },
  ]),
];
