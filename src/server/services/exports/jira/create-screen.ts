import type { HttpClient } from "../../../integrations/http-client";
import type { IssueType } from "./types";

/** Fields every issue gets from the exporter itself (or JIRA's defaults): never reported as missing. */
const FILLED_FIELDS = new Set([
  "project",
  "issuetype",
  "summary",
  "parent",
  "reporter",
  "description",
  "labels",
]);

const STORY_POINTS_CUSTOM = "com.pyxis.greenhopper.jira:jsw-story-points";
/** Epic Name, which company-managed projects may still require on an Epic: filled from the summary. */
const EPIC_NAME_CUSTOM = "com.pyxis.greenhopper.jira:gh-epic-label";

type MetaField = {
  fieldId: string;
  name: string;
  required: boolean;
  hasDefaultValue?: boolean;
  schema?: { custom?: string; type?: string };
};

/**
 * The create screen of an issue type in a project: its story-points field, its Epic Name field (filled
 * from the summary where there is one), and required fields nobody fills.
 */
export async function createScreen(http: HttpClient, key: string, type: IssueType) {
  const fields: MetaField[] = [];
  for (let startAt = 0; ; ) {
    const page = await http.request<{ fields?: MetaField[]; total?: number; maxResults?: number }>(
      "GET",
      `/rest/api/3/issue/createmeta/${encodeURIComponent(key)}/issuetypes/${encodeURIComponent(type.id)}`,
      { query: { startAt, maxResults: 200 } },
    );
    const got = page.body.fields ?? [];
    fields.push(...got);
    startAt += got.length;
    if (got.length === 0 || startAt >= (page.body.total ?? 0)) break;
  }
  const storyPoints =
    fields.find((f) => f.schema?.custom === STORY_POINTS_CUSTOM)?.fieldId ??
    fields.find((f) => /^story points?$/i.test(f.name) && f.schema?.type === "number")?.fieldId ??
    null;
  const epicName =
    fields.find((f) => f.schema?.custom === EPIC_NAME_CUSTOM)?.fieldId ??
    fields.find((f) => /^epic name$/i.test(f.name) && f.schema?.type === "string")?.fieldId ??
    null;
  const unfillable = fields
    .filter(
      (f) => f.required && !f.hasDefaultValue && !FILLED_FIELDS.has(f.fieldId) && f.fieldId !== epicName,
    )
    .map((f) => f.name);
  return { storyPoints, epicName, unfillable };
}
