/**
 * The keys of a class's custom serialization in the Workflow SDK (`@workflow/serde`): a static
 * method under `WORKFLOW_SERIALIZE` turns an instance into plain data, one under
 * `WORKFLOW_DESERIALIZE` turns the data back. Both are registered symbols (`Symbol.for`), so they
 * are the very symbols `@workflow/serde` exports and Baton needs no dependency on it.
 */
export const WORKFLOW_SERIALIZE: unique symbol = Symbol.for("workflow-serialize") as never;

/** See {@link WORKFLOW_SERIALIZE}. */
export const WORKFLOW_DESERIALIZE: unique symbol = Symbol.for("workflow-deserialize") as never;
