export {
  type Attachment,
  type AttachmentType,
  type SerializedAttachment,
  serializeAttachment,
} from "./attachment.js";
export type { Author } from "./author.js";
export type { MessageContext, MessageUpdatedContext, TurnInterruption } from "./context.js";
export type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "./events.js";
export type { JsonValue } from "./json.js";
export {
  type LinkPreview,
  type SerializedLinkPreview,
  serializeLinkPreview,
} from "./link-preview.js";
export {
  Message,
  type MessageInit,
  type MessageMetadata,
  type SerializedMessage,
} from "./message.js";
export {
  type MessageSubject,
  type SubjectSource,
  type SubjectSourceRef,
  setMessageAdapter,
  subjectOf,
} from "./message-subject.js";
export { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "./workflow-serde.js";
