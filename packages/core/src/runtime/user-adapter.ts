import type { Adapter } from "../contracts/adapter.js";
import { ValidationError } from "../errors/index.js";
import type { Author } from "../model/author.js";

/** A user as `chat.getUser` and `chat.openDM` take one: an id, or an author of a message. */
export type UserRef = string | (Pick<Author, "userId"> & Partial<Author>);

/** The user id of `user`; a `ValidationError` naming `user` when there is none. */
export function userIdOf(user: UserRef, step: string): string {
  const userId = typeof user === "string" ? user : user?.userId;
  if (typeof userId !== "string" || userId === "") {
    throw new ValidationError("user must be a non-empty user id or an object with a userId", {
      step,
    });
  }
  return userId;
}

/**
 * The one registered adapter whose `matchesUserId` claims `userId` (upstream infers it from
 * platform id patterns held in its core; Baton asks the adapters). Throws a `ValidationError`
 * when none claims it, or when several do ("ambiguous": register fewer adapters of that id
 * shape, or call the adapter yourself).
 */
export function adapterForUserId(
  adapters: Readonly<Record<string, Adapter>>,
  userId: string,
  step: string,
): Adapter {
  const claiming = Object.values(adapters).filter(
    (adapter) => typeof adapter.matchesUserId === "function" && adapter.matchesUserId(userId),
  );
  const [only] = claiming;
  if (only && claiming.length === 1) return only;
  if (claiming.length === 0) {
    throw new ValidationError(
      `Cannot infer adapter from userId "${userId}": no registered adapter claims it ` +
        "(an adapter claims its ids with matchesUserId)",
      { step },
    );
  }
  const names = claiming.map((adapter) => `"${adapter.name}"`).join(", ");
  throw new ValidationError(
    `userId "${userId}" is ambiguous (AMBIGUOUS_USER_ID): adapters ${names} all claim it`,
    { step },
  );
}
