import { randomBytes } from "node:crypto";
import type { WebIdentity } from "@baton/adapter-web";

/** The cookie that names a playground visitor. */
export const USER_COOKIE = "baton_playground_user";

const GUEST_ID = /^guest-[a-z0-9]{6}$/;

/**
 * Who sent a request: the guest id in the playground's cookie. The playground has no accounts;
 * the cookie only keeps one browser's threads apart from another's. Anything but a well-formed
 * guest id counts as nobody (401), so a forged cookie cannot reach another shape of thread id.
 */
export function identifyGuest(request: Request): WebIdentity | null {
  const userId = readCookie(request.headers.get("cookie"), USER_COOKIE);
  if (!userId || !GUEST_ID.test(userId)) return null;
  return { userId, userName: userId.replace("guest-", "Guest ") };
}

/**
 * A `Set-Cookie` value giving a new visitor a guest id, or `undefined` when the request already
 * has one. `SameSite=Strict` keeps other sites from posting as the visitor.
 */
export function guestCookieFor(request: Request): string | undefined {
  if (identifyGuest(request)) return undefined;
  const userId = `guest-${randomBytes(6)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "0")
    .slice(0, 6)}`;
  return `${USER_COOKIE}=${userId}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000`;
}

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
