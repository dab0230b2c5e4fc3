export { createMemoryState, MemoryState, type MemoryStateOptions } from "./memory-state.js";
