import { ValidationError } from "../errors/index.js";

/**
 * The adapter name a thread id starts with (`slack` in `slack:C123:1700.1`). Thread ids are
 * `{adapter}:{…}`; only the adapter knows the rest.
 */
export function adapterNameOf(threadId: string): string {
  const separator = typeof threadId === "string" ? threadId.indexOf(":") : -1;
  if (separator <= 0 || separator === threadId.length - 1) {
    throw new ValidationError(
      `thread id ${JSON.stringify(threadId)} is not of the form "{adapter}:{…}"`,
      { step: "read thread id" },
    );
  }
  return threadId.slice(0, separator);
}
