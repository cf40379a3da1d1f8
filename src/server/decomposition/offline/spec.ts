import type { Feature } from "./brief";

/** The planner's internal description of a node, shared by the modules that build and split plans. */

export type BoilerKind = "setup" | "data" | "auth" | "shell" | "tests" | "deploy";
export type ItemKind = BoilerKind | "feature" | "bundle" | "foundation" | "delivery" | "groundwork";
export type Category =
  | "tooling"
  | "model"
  | "api"
  | "ui"
  | "integration"
  | "tests"
  | "infra"
  | "hardware"
  | "firmware"
  | "logic"
  | "data"
  | "auth"
  | "docs"
  | "scene"
  | "generic";

export type Level = "root" | "item" | "step" | "micro" | "leaf" | "deep" | "deeper";

/** What the planner knows about one node: enough to describe it and to derive its children. */
export type Spec = {
  level: Level;
  description: string;
  details: string;
  /** Intrinsic difficulty 1-10; decides how far below its parent the node scores. */
  weight: number;
  /** Lower is kept first when a split has to be trimmed. */
  priority: number;
  category: Category;
  /** The object phrase children reuse ("the Express endpoints for search"). */
  obj: string;
  itemKind?: ItemKind;
  feature?: Feature;
  features?: Feature[];
  parts?: BoilerKind[];
  /** Epic title and priority (items only). */
  label?: string;
  epicPriority?: number;
};

export type StepDef = {
  text: string;
  details: string;
  weight: number;
  category: Category;
  priority: number;
  obj?: string;
};

export function storyPointsFor(score: number): 1 | 2 | 3 | 5 | 8 | 13 {
  if (score <= 2) return 1;
  if (score === 3) return 2;
  if (score === 4) return 3;
  if (score <= 6) return 5;
  if (score <= 8) return 8;
  return 13;
}
