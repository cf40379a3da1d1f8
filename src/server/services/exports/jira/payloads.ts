import { complexityBand } from "../../../../shared/complexity";
import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import { subtasksOf } from "../tracker";
import type { JiraState, Planned } from "./types";

export const ATOMIZE_LABEL = "atomize";

/** JIRA refuses a description over 32,767 characters; the ADF document sent stays under this. */
export const DESCRIPTION_MAX = 32_000;
export const DESCRIPTION_CUT_NOTE =
  "(Cut to fit JIRA's 32,767-character limit: the full text is in Atomize.)";

/** Atlassian Document Format: one paragraph per non-empty block (empty text nodes are invalid). */
export function adf(blocks: string[]) {
  const content = blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .map((text) => ({ type: "paragraph", content: [{ type: "text", text }] }));
  return {
    type: "doc",
    version: 1,
    content: content.length ? content : [{ type: "paragraph", content: [] }],
  };
}

/** Epics for non-atomic first-level subtasks, stories for atomic ones and below epics, sub-tasks deeper. */
export function planIssues(tree: TaskTreeNode): Planned[] {
  const out: Planned[] = [];
  for (const first of tree.children) {
    if (first.is_atomic || first.children.length === 0) {
      out.push({ task: first, kind: "story", parentTaskId: null });
      continue;
    }
    out.push({ task: first, kind: "epic", parentTaskId: null });
    for (const second of first.children) {
      out.push({ task: second, kind: "story", parentTaskId: first.id });
      for (const deeper of subtasksOf(second))
        out.push({ task: deeper, kind: "subtask", parentTaskId: second.id });
    }
  }
  return out;
}

/** The label that marks this export's issues, so a resumed export finds exactly what it created. */
export function exportMarker(exportId: string): string {
  return `atomize-export-${exportId.replace(/-/g, "").slice(0, 12)}`;
}

/** An issue's fields; `cut` when its description had to be shortened to JIRA's limit. */
export function issueFields(
  p: Planned,
  projectKey: string,
  typeId: string,
  storyPointsField: string | null,
  state: JiraState,
  marker: string,
  /** The Epic Name field of the project's Epic screen, when it has one: set to the summary. */
  epicNameField: string | null = null,
): { fields: Record<string, unknown>; cut: boolean } {
  const t = p.task;
  const labels = [ATOMIZE_LABEL, marker, `complexity-${complexityBand(t.complexity_score)}`];
  if (t.story_points) labels.push(`story-points-${t.story_points}`);
  if (p.kind === "epic") {
    const highest = Math.max(t.complexity_score ?? 0, ...subtasksOf(t).map((x) => x.complexity_score ?? 0));
    labels.push(`epic-complexity-${complexityBand(highest)}`);
  }
  const { doc, cut } = description(t);
  const fields: Record<string, unknown> = {
    project: { key: projectKey },
    summary: taskTitle(t.description, 250),
    issuetype: { id: typeId },
    labels,
    description: doc,
  };
  if (p.parentTaskId) fields.parent = { key: state.issues![p.parentTaskId] };
  if (storyPointsField && t.story_points) fields[storyPointsField] = t.story_points;
  if (epicNameField && p.kind === "epic") fields[epicNameField] = fields.summary;
  return { fields, cut };
}

/** The description as ADF, its text cut (with a note) when the document would pass JIRA's limit. */
function description(t: TaskTreeNode): { doc: ReturnType<typeof adf>; cut: boolean } {
  const rest = [
    t.implementation_details ? `Implementation: ${t.implementation_details}` : "",
    `Complexity ${t.complexity_score ?? "?"}/10 · Story points ${t.story_points ?? "?"} · Planned by Atomize`,
  ];
  const full = adf([t.description, ...rest]);
  if (JSON.stringify(full).length <= DESCRIPTION_MAX) return { doc: full, cut: false };
  // Long text: keep the start of each part within the limit, then say where the rest is.
  let budget = t.description.length + rest.join("").length;
  for (;;) {
    budget = Math.floor(budget * 0.9);
    const share = (text: string) =>
      text.slice(
        0,
        Math.max(
          200,
          Math.floor((budget * text.length) / Math.max(1, t.description.length + rest.join("").length)),
        ),
      );
    const doc = adf([
      share(t.description),
      ...rest.map((r, i) => (i === rest.length - 1 ? r : share(r))),
      DESCRIPTION_CUT_NOTE,
    ]);
    if (JSON.stringify(doc).length <= DESCRIPTION_MAX) return { doc, cut: true };
  }
}
