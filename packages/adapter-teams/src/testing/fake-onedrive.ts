import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** One file the bot uploaded into the fake OneDrive. */
export interface FakeOneDriveUpload {
  /** The upload session's id (the `uniqueId` of its `uploadInfo`). */
  readonly fileId: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The `Content-Range` header the upload carried. */
  readonly contentRange: string | undefined;
  /** The `Authorization` header, if the bot sent one (OneDrive upload URLs need none). */
  readonly authorization: string | undefined;
}

/** The `uploadInfo` of an accepted file consent, as Teams sends it. */
export interface FakeUploadInfo {
  readonly contentUrl: string;
  readonly name: string;
  readonly uploadUrl: string;
  readonly uniqueId: string;
  readonly fileType: string;
  readonly etag: string;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/**
 * The user's OneDrive behind a file consent card, for tests: the upload sessions Teams opens when
 * the user accepts a file (`uploadInfo`), which take the whole file in one PUT with a matching
 * `Content-Range`, as OneDrive does, and record what arrived.
 */
export class FakeOneDrive {
  /** Every completed upload, in order. */
  readonly uploads: FakeOneDriveUpload[] = [];
  /** Every upload request that arrived, refused ones included. */
  attempts = 0;
  private readonly sessions = new Map<string, string>();
  private readonly failures: number[] = [];
  private held: Promise<void> | undefined;

  constructor(
    /** The fake's base URL, e.g. `http://127.0.0.1:PORT`. */
    private readonly url: string,
  ) {}

  /** Opens an upload session for `name`: what Teams reports when the user accepts that file. */
  uploadInfo(name: string): FakeUploadInfo {
    const fileId = randomUUID();
    this.sessions.set(fileId, name);
    return {
      contentUrl: `${this.url}/onedrive/files/${encodeURIComponent(name)}`,
      name,
      uploadUrl: `${this.url}/onedrive/upload/${fileId}`,
      uniqueId: fileId,
      fileType: /\.([^.]+)$/.exec(name)?.[1] ?? "",
      etag: `"${fileId},1"`,
    };
  }

  /**
   * The `value` of the `fileConsent/invoke` Teams sends when the user answers `card` (a file
   * consent attachment the bot posted): the card's accept or decline context, and on accept a
   * fresh upload session for the file.
   */
  consentAnswer(card: Record<string, unknown>, action: "accept" | "decline") {
    const content = (card.content ?? {}) as { acceptContext?: unknown; declineContext?: unknown };
    if (action === "decline") {
      return { type: "fileUpload", action, context: content.declineContext };
    }
    const name = typeof card.name === "string" ? card.name : "file";
    return {
      type: "fileUpload",
      action,
      context: content.acceptContext,
      uploadInfo: this.uploadInfo(name),
    };
  }

  /** Makes the next upload fail with `status` (repeat to fail several). */
  failNextUpload(status: number): void {
    this.failures.push(status);
  }

  /**
   * Holds every upload that arrives from now on until the returned function is called: a slow
   * OneDrive, for tests of what happens while an upload is under way.
   */
  holdUploads(): () => void {
    let release = () => {};
    this.held = new Promise((resolve) => {
      release = () => {
        this.held = undefined;
        resolve();
      };
    });
    return release;
  }

  /** @internal Serves `PUT /onedrive/upload/{fileId}`. */
  async serve(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    body: Buffer,
  ): Promise<void> {
    this.attempts += 1;
    if (this.held !== undefined) await this.held;
    const fileId = /^\/onedrive\/upload\/([^/]+)$/.exec(path)?.[1];
    const name = fileId === undefined ? undefined : this.sessions.get(fileId);
    if (request.method !== "PUT" || fileId === undefined || name === undefined) {
      return json(response, 404, { error: { code: "itemNotFound", message: "no such session" } });
    }
    const failure = this.failures.shift();
    if (failure !== undefined) {
      return json(response, failure, { error: { code: "serviceNotAvailable", message: "fake" } });
    }
    const contentRange = request.headers["content-range"];
    if (
      body.byteLength === 0 ||
      contentRange !== `bytes 0-${body.byteLength - 1}/${body.byteLength}`
    ) {
      return json(response, 400, { error: { code: "invalidRange", message: "bad Content-Range" } });
    }
    this.sessions.delete(fileId);
    this.uploads.push({
      fileId,
      name,
      bytes: new Uint8Array(body),
      contentRange,
      authorization: request.headers.authorization,
    });
    json(response, 201, { id: fileId, name, size: body.byteLength, file: {} });
  }
}
