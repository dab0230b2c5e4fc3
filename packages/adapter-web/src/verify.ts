import type { WebIdentity } from "./options.js";
import { WEB_ID_PATTERN } from "./thread-id.js";

/** The longest user name accepted from `identify`, in characters. */
export const MAX_USER_NAME_LENGTH = 100;

/** The outcome of {@link verifyRequest}: who sent it, or why the request is refused. */
export type Verification =
  | { ok: true; identity: WebIdentity }
  | {
      ok: false;
      status: 401 | 500;
      code: "UNAUTHENTICATED" | "IDENTIFY_FAILED";
      error: string;
      /** For the host's log, never the response: what went wrong inside `identify`. */
      cause?: unknown;
    };

/**
 * Asks the host who sent `request`, before the body is read: an anonymous request costs no
 * parsing and writes nothing. `null` is 401. An identity that could not be part of a thread id,
 * or an `identify` that throws, is the host's bug and answered 500 without details.
 */
export async function verifyRequest(
  request: Request,
  identify: (request: Request) => WebIdentity | null | Promise<WebIdentity | null>,
): Promise<Verification> {
  let identity: WebIdentity | null;
  try {
    identity = await identify(request);
  } catch (error) {
    return fail(500, "IDENTIFY_FAILED", "identifying the user failed", error);
  }
  if (identity === null || identity === undefined) {
    return fail(
      401,
      "UNAUTHENTICATED",
      "no user identity: sign in, or send the identity the app expects",
    );
  }
  const { userId, userName } = identity as Partial<WebIdentity>;
  const validName =
    typeof userName === "string" &&
    userName.trim() !== "" &&
    userName.length <= MAX_USER_NAME_LENGTH;
  if (typeof userId !== "string" || !WEB_ID_PATTERN.test(userId) || !validName) {
    const problem =
      "identify must return { userId: 1–64 of [A-Za-z0-9_.-], userName: 1–100 characters }";
    return fail(
      500,
      "IDENTIFY_FAILED",
      "identify returned an identity the web adapter cannot use",
      new Error(problem),
    );
  }
  return { ok: true, identity: { userId, userName } };
}

function fail(
  status: 401 | 500,
  code: "UNAUTHENTICATED" | "IDENTIFY_FAILED",
  error: string,
  cause?: unknown,
): Verification {
  return cause === undefined
    ? { ok: false, status, code, error }
    : { ok: false, status, code, error, cause };
}
