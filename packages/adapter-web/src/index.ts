export type { WebEvent, WebTextFormat, WebWireMessage } from "./format.js";
export {
  jsonResponse,
  type ServedWebHandler,
  type ServeWebHandlerOptions,
  sendWebResponse,
  serveWebHandler,
  toWebRequest,
} from "./node-http.js";
export type { WebAdapterOptions, WebIdentity } from "./options.js";
export type { WebPostBody, WebRawMessage } from "./parse.js";
export {
  DM_THREAD_NAME,
  decodeWebThreadId,
  encodeWebThreadId,
  WEB_ID_PATTERN,
  type WebThreadData,
} from "./thread-id.js";
export { createWebAdapter, WebAdapter } from "./web-adapter.js";
export type { WebPostResponseBody } from "./webhook.js";
