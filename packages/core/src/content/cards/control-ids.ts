import { ValidationError } from "../../errors/index.js";

/**
 * Checks that no two controls (buttons, link buttons with an id, selects) under `children`
 * share an id: a platform reports a click by id alone, so a duplicate would route two controls
 * to one handler. Descends into sections and action rows.
 */
export function checkUniqueControlIds(element: string, children: readonly unknown[]): void {
  const seen = new Set<string>();
  const visit = (nodes: readonly unknown[]): void => {
    for (const node of nodes) {
      if (typeof node !== "object" || node === null) continue;
      const {
        type,
        id,
        children: nested,
      } = node as { type?: unknown; id?: unknown; children?: unknown };
      if (type === "section" || type === "actions") {
        if (Array.isArray(nested)) visit(nested);
        continue;
      }
      const isControl =
        type === "button" || type === "link-button" || type === "select" || type === "radio_select";
      if (!isControl || typeof id !== "string") continue;
      if (seen.has(id)) {
        throw new ValidationError(
          `${element} has two controls with the id ${JSON.stringify(id)}; each button and select needs its own 'id'`,
        );
      }
      seen.add(id);
    }
  };
  visit(children);
}
