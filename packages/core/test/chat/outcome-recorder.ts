import type { DispatchOutcome, Observer } from "@baton/core";

/** An observer recording the outcome of each span end and of each `baton.deliveries` count. */
export function outcomeRecorder() {
  const ends: Array<{ outcome: DispatchOutcome; reason: string | undefined }> = [];
  const counted: string[] = [];
  const observer: Observer = {
    startDispatch: () => ({
      setAttributes: () => {},
      end: (outcome, reason) => ends.push({ outcome, reason }),
    }),
    count: (name, _value, attributes) => {
      if (name === "baton.deliveries") counted.push(String(attributes.outcome));
    },
  };
  return { ends, counted, observer };
}
