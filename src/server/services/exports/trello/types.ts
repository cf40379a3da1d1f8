import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import type { HttpClient } from "../../../integrations/http-client";
import type { PreviousExport } from "../remote";
import type { ExportPlan } from "../tracker";

/**
 * What this export made so far, saved after every step. `pending` names what a create was sent for and
 * not yet confirmed (its answer may have been lost after Trello made it): the next run looks for those
 * on the board before it creates anything again.
 */
export type TrelloState = {
  board?: { id: string; url: string; name: string };
  /** Earlier cards brought up to date by this export (task ids). */
  refreshed?: string[];
  /** The user's webhook was registered on the board (or Trello said why not). */
  webhook?: "registered" | string;
  lists?: Record<string, string>;
  labels?: Record<string, string>;
  /** Task id -> card id. */
  cards?: Record<string, string>;
  /** Checklist key -> checklist id. */
  checklists?: Record<string, string>;
  /** Checklist key -> how many of its items exist. */
  items?: Record<string, number>;
  pending?: Pending;
};

export type Pending = {
  board?: boolean;
  lists?: string[];
  labels?: string[];
  cards?: string[];
  checklists?: string[];
  /** Checklist keys whose items were being added. */
  items?: string[];
};

export type Checklist = {
  key: string;
  cardTask: string;
  name: string;
  items: Array<{ name: string; checked: boolean }>;
};

export type TrelloPlan = ExportPlan & {
  http: HttpClient;
  /** The existing board to export into (config.board_id), and what earlier exports made there. */
  board: { id: string; url: string; name: string } | null;
  previous: PreviousExport;
  concurrency: number;
  boardName: string;
  /** Cards in tree order, each with the path of titles above it. */
  cards: Array<{ task: TaskTreeNode; path: string[] }>;
  checklists: Checklist[];
};
