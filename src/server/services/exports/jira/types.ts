import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import type { HttpClient } from "../../../integrations/http-client";
import type { PreviousExport } from "../remote";
import type { ExportPlan } from "../tracker";

export type IssueType = { id: string; name: string; hierarchyLevel: number; subtask?: boolean };

export type Planned = { task: TaskTreeNode; kind: "epic" | "story" | "subtask"; parentTaskId: string | null };

export type JiraState = {
  project_key?: string;
  /** Earlier issues already brought up to date by this export (task ids). */
  refreshed?: string[];
  /** The project was asked for: after a lost answer, look for it before asking again. */
  project_requested?: boolean;
  issues?: Record<string, string>;
  pending?: string[];
  pages?: Record<string, string>;
  /** "waiting task id>blocking task id" of the "Blocks" links made. */
  links?: string[];
};

export type JiraPlan = ExportPlan & {
  http: HttpClient;
  wiki: HttpClient;
  site: string;
  key: string;
  existing: boolean;
  previous: PreviousExport;
  planned: Planned[];
  pages: Array<[string, string]>;
};
