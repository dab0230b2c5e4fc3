export { lockKeyFor } from "./lock-key.js";
export { adapterNameOf } from "./thread-id.js";
