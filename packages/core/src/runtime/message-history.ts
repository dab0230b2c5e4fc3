import { ThreadHistoryCache } from "./thread-history.js";

/** @deprecated Upstream's old name of {@link ThreadHistoryCache}; the same class. */
export const MessageHistoryCache = ThreadHistoryCache;
/** @deprecated See {@link ThreadHistoryCache}. */
export type MessageHistoryCache = ThreadHistoryCache;
