/**
 * The task service's entry points, by job: reading (read.ts), the monthly allowance (usage.ts), creating
 * and changing tasks (edit.ts), and changing a plan's shape (structure.ts). Adapters reach them through
 * operations/tasks.ts.
 */
export { getOwnedRow, TASK_NOT_FOUND } from "../../plan/owned";
export * from "./allowance";
export * from "./edit";
export * from "./read";
export * from "./structure";
export { readTree } from "./tree-reads";
