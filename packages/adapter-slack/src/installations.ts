import { type Clock, ConfigError, type JsonValue, type StateAdapter } from "@baton/core";
import { decryptToken, encryptToken, isEncryptedTokenData } from "./crypto.js";

/** What a multi-workspace app keeps per Slack installation (upstream's `SlackInstallation`). */
export interface SlackInstallation {
  /** The installation's bot token (`xoxb-…`). Stored encrypted when `encryptionKey` is set. */
  botToken: string;
  /** The installation's bot user (`U…`), for telling the bot's own messages apart. */
  botUserId?: string;
  /** The Enterprise Grid org the workspace belongs to, or the org of an org-wide install. */
  enterpriseId?: string;
  /** True for an org-wide Enterprise Grid install (stored under the enterprise id). */
  isEnterpriseInstall?: boolean;
  /** The workspace's (or org's) display name at install time; informational, never a key. */
  teamName?: string;
}

/**
 * Installations kept outside the State (a secret manager, a platform's token service). When
 * configured, the adapter asks it for every delivery and never reads the State for tokens.
 */
export interface SlackInstallationProvider {
  /** `installationId` is the enterprise id when `isEnterpriseInstall`, else the team id. */
  getInstallation(
    installationId: string,
    isEnterpriseInstall: boolean,
  ): Promise<SlackInstallation | null>;
}

/** What {@link SlackInstallations} is built from. */
export interface SlackInstallationsOptions {
  /** The Chat's State; undefined before `initialize`. */
  readonly state: () => StateAdapter | undefined;
  /** The State key prefix; an installation's key is `{prefix}:{installationId}`. */
  readonly keyPrefix: string;
  /** The decoded `encryptionKey`, or undefined to store tokens as they are. */
  readonly key: Buffer | undefined;
  /** An external installation store; when set, `resolve` asks it and never the State. */
  readonly provider: SlackInstallationProvider | undefined;
  /** Time source of the read cache's expiry (a fake clock in tests). */
  readonly clock: Clock;
}

/** The default State key prefix (upstream's). */
export const DEFAULT_INSTALLATION_KEY_PREFIX = "slack:installation";

/**
 * How long this process reuses an installation it read, so a busy workspace's deliveries cost
 * no State read beyond the core's one. An uninstall seen by another process reaches this one
 * within this time; until then Slack refuses the stale token (`invalid_auth`), nothing worse.
 */
export const INSTALLATION_CACHE_TTL_MS = 5 * 60 * 1_000;

type Stored = Record<string, JsonValue>;

/**
 * The installation store of a multi-workspace app, in the Chat's State: one key per team (or
 * enterprise, for org-wide installs), the bot token encrypted at rest with AES-256-GCM when a
 * key is configured.
 */
export class SlackInstallations {
  private readonly cache = new Map<string, { value: SlackInstallation; expiresAtMs: number }>();
  /**
   * Bumped by every set/delete of an id: a read that saw the version change while it awaited
   * the State may have read the old record, so it is returned but not cached.
   */
  private readonly versions = new Map<string, number>();

  constructor(private readonly options: SlackInstallationsOptions) {}

  /** The State key of an installation. */
  keyOf(installationId: string): string {
    return `${this.options.keyPrefix}:${installationId}`;
  }

  /** Saves (or replaces) an installation. Throws before `initialize`: there is no State yet. */
  async set(installationId: string, installation: SlackInstallation): Promise<void> {
    checkId(installationId);
    if (typeof installation?.botToken !== "string" || installation.botToken === "") {
      throw new ConfigError(["slack adapter: an installation needs a botToken"]);
    }
    const version = this.bump(installationId);
    const key = this.options.key;
    const stored: Stored = {
      botToken:
        key === undefined
          ? installation.botToken
          : { ...encryptToken(installation.botToken, key, this.keyOf(installationId)) },
    };
    if (installation.botUserId !== undefined) stored.botUserId = installation.botUserId;
    if (installation.enterpriseId !== undefined) stored.enterpriseId = installation.enterpriseId;
    if (installation.isEnterpriseInstall !== undefined) {
      stored.isEnterpriseInstall = installation.isEnterpriseInstall;
    }
    if (installation.teamName !== undefined) stored.teamName = installation.teamName;
    await this.state("setInstallation").set(this.keyOf(installationId), stored);
    this.remember(installationId, { ...installation }, version);
  }

  /** The stored installation, its token decrypted; null when there is none. */
  async get(installationId: string): Promise<SlackInstallation | null> {
    checkId(installationId);
    const version = this.versionOf(installationId);
    const stored = await this.state("getInstallation").get<Stored>(this.keyOf(installationId));
    if (stored === null) {
      if (this.versionOf(installationId) === version) this.cache.delete(installationId);
      return null;
    }
    const installation = this.decode(installationId, stored);
    this.remember(installationId, installation, version);
    return { ...installation };
  }

  /** Removes an installation (an uninstall); removing an unknown one does nothing. */
  async delete(installationId: string): Promise<void> {
    checkId(installationId);
    this.bump(installationId);
    this.cache.delete(installationId);
    await this.state("deleteInstallation").delete(this.keyOf(installationId));
  }

  /**
   * The installation a delivery belongs to: from the provider when one is configured (never the
   * State then), else from this process's recent reads, else from the State.
   */
  async resolve(
    installationId: string,
    isEnterpriseInstall: boolean,
  ): Promise<SlackInstallation | null> {
    const provider = this.options.provider;
    if (provider !== undefined)
      return provider.getInstallation(installationId, isEnterpriseInstall);
    const cached = this.cache.get(installationId);
    if (cached !== undefined && cached.expiresAtMs > this.options.clock.now()) {
      return { ...cached.value };
    }
    return this.get(installationId);
  }

  /**
   * Drops this process's copy of an installation (Slack refused its token), so the next
   * delivery reads the State again instead of reusing the dead token for the cache period.
   */
  forget(installationId: string): void {
    this.bump(installationId);
    this.cache.delete(installationId);
  }

  private versionOf(installationId: string): number {
    return this.versions.get(installationId) ?? 0;
  }

  private bump(installationId: string): number {
    const next = this.versionOf(installationId) + 1;
    this.versions.set(installationId, next);
    return next;
  }

  /** Caches `value` unless a set/delete of the id happened since `version` was taken. */
  private remember(installationId: string, value: SlackInstallation, version: number): void {
    if (this.versionOf(installationId) !== version) return;
    this.cache.set(installationId, {
      value,
      expiresAtMs: this.options.clock.now() + INSTALLATION_CACHE_TTL_MS,
    });
  }

  private decode(installationId: string, stored: Stored): SlackInstallation {
    const raw = stored.botToken;
    let botToken: string;
    if (isEncryptedTokenData(raw)) {
      const key = this.options.key;
      if (key === undefined) {
        throw new ConfigError([
          `slack adapter: the installation ${installationId} is encrypted but no encryptionKey is set`,
        ]);
      }
      botToken = decryptToken(raw, key, this.keyOf(installationId));
    } else if (typeof raw === "string") {
      // A plaintext token under a configured key is a downgrade (someone wrote the State
      // directly, or an attacker swapped the record): refuse rather than trust it.
      if (this.options.key !== undefined) {
        throw new ConfigError([
          `slack adapter: the installation ${installationId} holds a plaintext bot token but an encryptionKey is set; re-save it with setInstallation`,
        ]);
      }
      botToken = raw;
    } else {
      throw new ConfigError([`slack adapter: the installation ${installationId} has no bot token`]);
    }
    const installation: SlackInstallation = { botToken };
    if (typeof stored.botUserId === "string") installation.botUserId = stored.botUserId;
    if (typeof stored.enterpriseId === "string") installation.enterpriseId = stored.enterpriseId;
    if (typeof stored.isEnterpriseInstall === "boolean") {
      installation.isEnterpriseInstall = stored.isEnterpriseInstall;
    }
    if (typeof stored.teamName === "string") installation.teamName = stored.teamName;
    return installation;
  }

  private state(what: string): StateAdapter {
    const state = this.options.state();
    if (state === undefined) {
      throw new ConfigError([
        `slack adapter: ${what} needs the Chat's State: call it after the Chat initialized the adapter`,
      ]);
    }
    return state;
  }
}

function checkId(installationId: string): void {
  if (typeof installationId !== "string" || installationId.trim() === "") {
    throw new ConfigError([
      "slack adapter: an installation id (team or enterprise id) is required",
    ]);
  }
}
