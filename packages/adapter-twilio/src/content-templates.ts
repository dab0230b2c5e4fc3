import type { StateAdapter } from "@baton/core";
import type { TwilioApi } from "./api.js";
import {
  quickReplyFriendlyName,
  quickReplyShapeKey,
  quickReplyTemplateRequest,
  type TwilioQuickReplyButton,
} from "./quick-reply.js";

/** How many button sets' sids one process keeps in memory. */
const MAX_CACHED_SETS = 1_000;

/**
 * The Content templates (`HX…`) of WhatsApp quick replies, one per distinct line structure and button set, so a card
 * is not re-created on every post. Looked up in this process, then in the Chat's State (shared by
 * every replica; kept without expiry, as Twilio keeps templates), then on Twilio by the
 * template's deterministic friendly name (a State that lost its keys), and only then created.
 * Concurrent posts of the same button set in one process wait for a single creation.
 */
export class QuickReplyTemplates {
  private readonly pending = new Map<string, Promise<string>>();

  constructor(
    private readonly api: TwilioApi,
    private readonly state: () => StateAdapter,
    /** How many button sets' sids this process keeps in memory before the State is asked. */
    private readonly maxCachedSets = MAX_CACHED_SETS,
  ) {}

  /**
   * The template sid for `buttons`, creating the template on first use. `refresh` forgets the
   * cached sid first: for a sid Twilio refused (21655, a template deleted in the console).
   */
  sidFor(
    buttons: readonly TwilioQuickReplyButton[],
    template: string,
    refresh = false,
  ): Promise<string> {
    const key = quickReplyShapeKey(buttons, template);
    const known = refresh ? undefined : this.pending.get(key);
    if (known !== undefined) return known;
    const lookup = this.lookupOrCreate(key, buttons, template, refresh);
    this.pending.delete(key);
    this.pending.set(key, lookup);
    // Bounded: a bot whose button titles vary per post must not grow this map without end (the
    // State still knows every template, so an evicted set costs one State read).
    if (this.pending.size > this.maxCachedSets) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    // A failed creation must not stick: the next post tries again.
    // Only this lookup's own entry: a refresh may have replaced it with a newer one meanwhile.
    lookup.catch(() => {
      if (this.pending.get(key) === lookup) this.pending.delete(key);
    });
    return lookup;
  }

  private async lookupOrCreate(
    key: string,
    buttons: readonly TwilioQuickReplyButton[],
    template: string,
    refresh: boolean,
  ): Promise<string> {
    const state = this.state();
    // A Content SID belongs to one account: two adapters on one State must not share sids.
    const stateKey = `twilio:content:quick-reply:${this.api.accountSid ?? "-"}:${key}`;
    const stored = refresh ? null : await state.get<string>(stateKey);
    if (typeof stored === "string" && stored !== "") return stored;
    const existing = await this.api.findContent(quickReplyFriendlyName(buttons, template));
    const sid =
      existing?.sid ??
      (await this.api.createContent(quickReplyTemplateRequest(buttons, template))).sid;
    if (refresh) {
      await state.set(stateKey, sid);
      return sid;
    }
    // Another replica may have created one at the same time: the first sid stored wins, so every
    // replica sends the same template.
    if (await state.setIfNotExists(stateKey, sid)) return sid;
    const winner = await state.get<string>(stateKey);
    return typeof winner === "string" && winner !== "" ? winner : sid;
  }
}
