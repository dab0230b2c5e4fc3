import type { JsonValue } from "./json.js";

/**
 * What a message is about, on platforms where a conversation hangs off a record: the issue a
 * Linear comment belongs to, the pull request of a GitHub review comment.
 */
export interface MessageSubject {
  /** The record's kind, e.g. `"issue"` or `"pull_request"`. */
  type: string;
  /** The platform's id of the record, e.g. `"ENG-123"`. */
  id: string;
  title?: string;
  /** The record's status as the platform names it, e.g. `"In Progress"`. */
  status?: string;
  url?: string;
  /** The platform's payload. */
  raw: JsonValue;
}

/** The part of an adapter a message needs to load its subject. */
export interface SubjectSource {
  /** Loads the subject of the conversation `threadId`, or `null` when it has none. */
  fetchSubject?(threadId: string): Promise<MessageSubject | null>;
}

/** A source, or a function that finds one when the subject is first read (revived messages). */
export type SubjectSourceRef = SubjectSource | (() => SubjectSource | undefined);

const sources = new WeakMap<object, SubjectSourceRef>();
const subjects = new WeakMap<object, Promise<MessageSubject | null>>();

/**
 * Binds `message` to the adapter that loads its subject (upstream's `setMessageAdapter`). The
 * runtime does it for every message it dispatches, queued and revived ones included; call it
 * yourself only for a message you built by hand. Binding another source replaces it and forgets
 * a subject loaded before; binding the same source again keeps it.
 */
export function setMessageAdapter(message: object, source: SubjectSourceRef): void {
  if (sources.get(message) === source) return;
  sources.set(message, source);
  subjects.delete(message);
}

/**
 * The subject of `message`, loaded once: the first read calls `fetchSubject(threadId)`, every
 * later or concurrent read shares that call's result (`null` included). Resolves `null` without
 * a call when the message is bound to no adapter or its adapter has no `fetchSubject`. A failed
 * load rejects and is forgotten, so the next read tries again.
 */
export function subjectOf(message: object, threadId: string): Promise<MessageSubject | null> {
  const known = subjects.get(message);
  if (known) return known;
  const ref = sources.get(message);
  const source = typeof ref === "function" ? ref() : ref;
  const fetch = source?.fetchSubject;
  if (typeof fetch !== "function") return Promise.resolve(null);
  const loading = Promise.resolve()
    .then(() => fetch.call(source, threadId))
    .then((subject) => subject ?? null);
  subjects.set(message, loading);
  loading.catch(() => {
    if (subjects.get(message) === loading) subjects.delete(message);
  });
  return loading;
}
