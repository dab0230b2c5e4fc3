import {
  type AdapterPostableMessage,
  NotSupportedError,
  type StateAdapter,
  ValidationError,
} from "@baton/core";
import type { TeamsOutboundActivity } from "./api.js";
import { offerTeamsFiles } from "./file-consent.js";
import type { TeamsFormatConverter } from "./format.js";
import { collectTeamsFiles } from "./outbound-files.js";
import { activityForPost } from "./post.js";
import { decodeTeamsThreadId, isTeamsDM, TEAMS_ADAPTER_NAME } from "./thread-id.js";

/** What building an outbound message needs from the adapter. */
export interface TeamsOutboundContext {
  readonly converter: TeamsFormatConverter;
  /** The Chat's State, where offered files wait for the user's consent. */
  state(): StateAdapter;
  readonly fileConsentTtlMs: number;
  readonly fileConsentMaxBytes: number;
}

/** A new message (a post, or an ephemeral one), or the replacement content of an edit. */
export type TeamsOutboundKind = "post" | "edit";

const INLINE_ONLY = "PNG, JPEG or GIF images of at most 1 MB (or images by https URL)";

/**
 * The activity for a message with its files: pictures inline in any conversation; any other
 * file, in a new message in a personal chat, as a file consent card (the bytes wait in the
 * State until the user accepts, see `answerFileConsent`). Everything is checked before the
 * State is written or Teams is called: other files elsewhere, and in edits, are refused with
 * a `NotSupportedError` (adapter `teams`, feature `files`); a file over `fileConsentMaxBytes`
 * with a `ValidationError`.
 */
export async function composeTeamsActivity(
  context: TeamsOutboundContext,
  threadId: string,
  message: AdapterPostableMessage,
  kind: TeamsOutboundKind,
): Promise<TeamsOutboundActivity> {
  const step = kind === "edit" ? "edit a teams message" : "post a teams message";
  const files = await collectTeamsFiles(message);
  const withFiles = files.images.length + files.offered.length > 0;
  const activity = activityForPost(message, context.converter, withFiles);
  if (!withFiles) return activity;
  if (files.offered.length > 0) {
    if (kind === "edit") {
      throw new NotSupportedError(TEAMS_ADAPTER_NAME, "files", {
        description: `Files in an edit other than ${INLINE_ONLY}`,
        step,
      });
    }
    if (!isTeamsDM(threadId)) {
      throw new NotSupportedError(TEAMS_ADAPTER_NAME, "files", {
        description: `Files outside personal chats other than ${INLINE_ONLY}`,
        step,
      });
    }
    const tooLarge = files.offered.find(
      (file) => file.bytes.byteLength > context.fileConsentMaxBytes,
    );
    if (tooLarge !== undefined) {
      throw new ValidationError(
        `${tooLarge.filename} has ${tooLarge.bytes.byteLength} bytes; the Teams adapter offers ` +
          `files of at most fileConsentMaxBytes (${context.fileConsentMaxBytes})`,
        { step },
      );
    }
  }
  const { conversationId } = decodeTeamsThreadId(threadId);
  const consent =
    files.offered.length === 0
      ? []
      : await offerTeamsFiles(
          context.state(),
          files.offered,
          conversationId,
          context.fileConsentTtlMs,
        );
  const attachments = (activity as { attachments?: unknown[] }).attachments ?? [];
  return {
    ...activity,
    attachments: [...attachments, ...files.images, ...consent],
  } as TeamsOutboundActivity;
}
