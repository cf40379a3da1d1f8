import type { Deps } from "../../../deps";
import { AppError } from "../../../errors";
import { jiraSiteOrigin } from "../../../integrations/allowed-origin";
import { readCredential } from "../../../integrations/credentials";
import { connectJira } from "../../../integrations/jira/connection";
import { outboundFetch } from "../../../lib/outbound/fetch";
import {
  type AddedItem,
  type Change,
  hubSignatureOk,
  isRecord,
  pointsFromLabels,
  type Reading,
  type RemoteItemRow,
  type RemoteSnapshot,
  type RemoteStatus,
  str,
  time,
} from "../tracker";
import type { Tracker } from "../tracker-deps";
import { adfText } from "./adf-text";
import { jiraExporter } from "./exporter";
import { ATOMIZE_LABEL } from "./payloads";
import { jqlString, searchAll } from "./search";
import { wikiText } from "./wiki-text";

/**
 * JIRA Cloud (with Confluence pages) as a tracker: a project of epics, stories and sub-tasks with the
 * export's label; statuses read by status category; webhooks signed `X-Hub-Signature: sha256=<hex>` with a
 * secret Atomize makes (admin webhooks, "Webhooks" in Atlassian's JIRA Cloud platform documentation),
 * carrying the REST v2 representation of the issue (decision 038).
 */
export const jiraTracker: Tracker = {
  kind: "jira",
  async start(deps, userId, input) {
    const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
    const c = input.config as Record<string, string | boolean | undefined>;
    const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    const jiraUrl = text(c.jira_url) ?? text(stored?.publicData.jira_url);
    const email = text(c.user_email) ?? stored?.secret.user_email;
    const token = text(c.api_token) ?? stored?.secret.api_token;
    const accountId = text(c.account_id) ?? text(stored?.publicData.account_id);
    const missing = !jiraUrl
      ? "JIRA URL is required"
      : !email
        ? "Your email is required"
        : !token
          ? "API token is required"
          : !accountId
            ? "Account ID is required"
            : null;
    if (missing || !jiraUrl || !email || !token) throw new AppError("UNPROCESSABLE_CONTENT", missing!);
    const site = jiraSiteOrigin(jiraUrl, deps.config.JIRA_ALLOWED_ORIGINS, deps.config);
    return {
      secret: { user_email: email, api_token: token },
      config: {
        jira_url: site,
        account_id: accountId,
        project_name: c.project_name,
        project_key: c.project_key,
        user_email: email,
        existing_project: c.existing_project === true,
        ...(c.confluence_space_key ? { confluence_space_key: c.confluence_space_key } : {}),
      },
    };
  },
  async previewTarget(deps, userId, input) {
    if (!input.project_key) return null;
    const stored = await readCredential(deps, userId, "jira");
    const url = input.jira_url || (stored?.publicData.jira_url as string | undefined);
    return url
      ? `${jiraSiteOrigin(url, deps.config.JIRA_ALLOWED_ORIGINS, deps.config)}|${input.project_key}`
      : null;
  },
  exporter: jiraExporter,
  read: jiraReading,
  webhook: {
    secret: { made: true },
    verify: (secret, raw, _url, headers) => hubSignatureOk(secret, raw, headers["x-hub-signature"]),
    deliveryId(headers, p) {
      // Unique only within a site (as jira.js's `WebhookHeaders` documents it): kept with the issue's site.
      const given = headers["x-atlassian-webhook-identifier"]?.trim();
      if (!given) return null;
      const self = isRecord(p) && isRecord(p.issue) ? str(p.issue.self) : null;
      const site = self ? originOf(self) : null;
      return site ? `${site}|${given}` : given;
    },
    change: (_headers, payload) => jiraChange(payload),
  },
};

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** JIRA by status category: done, in progress, to do. */
function jiraStatus(name: string, category: string): RemoteStatus {
  return {
    text: name,
    means: category === "done" ? "completed" : category === "indeterminate" ? "in_progress" : "pending",
  };
}

type JiraIssue = {
  key: string;
  self?: string;
  fields?: {
    summary?: string;
    description?: unknown;
    labels?: string[];
    parent?: { key?: string };
    updated?: string;
    status?: { name?: string; statusCategory?: { key?: string } };
  };
};

/** A JIRA issue as read: its status, its fields in the words the export wrote them, and when it changed. */
export function jiraRead(issue: JiraIssue) {
  const f = issue.fields ?? {};
  return {
    state: jiraStatus(f.status?.name ?? "?", f.status?.statusCategory?.key ?? "new"),
    snap: {
      ...(typeof f.summary === "string" ? { title: f.summary } : {}),
      // ADF from REST v3; wiki markup from v2, which is what webhooks carry (never read as "emptied").
      ...(f.description !== undefined
        ? {
            text: !f.description
              ? ""
              : typeof f.description === "string"
                ? wikiText(f.description)
                : adfText(f.description),
          }
        : {}),
      ...(Array.isArray(f.labels)
        ? { story_points: pointsFromLabels(f.labels, /^story-points-(\d+)$/) }
        : {}),
      parent: f.parent?.key ?? null,
    } satisfies RemoteSnapshot,
    at: time(f.updated),
  };
}

const JIRA_FIELDS = "status,summary,description,labels,parent,updated";

/**
 * The project's issues with the export's label, page by page: a search by keys would be refused whole
 * (400) when one key no longer exists there, so each missing item is reported on its own instead. Issues
 * made there under an exported issue since the first export are items added there.
 */
async function jiraReading(
  deps: Deps,
  userId: string,
  target: string,
  group: RemoteItemRow[],
): Promise<Reading> {
  const stored = await readCredential<{ user_email: string; api_token: string }>(deps, userId, "jira");
  if (!stored) throw new Error("connect JIRA in Settings to sync its statuses");
  const [site, project] = target.split("|") as [string, string];
  const { jira } = await connectJira({
    fetch: outboundFetch(deps.config, "user"),
    site,
    email: stored.secret.user_email,
    token: stored.secret.api_token,
    gateway: deps.config.ATLASSIAN_API_URL,
    concurrency: 2,
    retries: 1,
    describe: (status) => `JIRA answered ${status}`,
  });
  const found = await searchAll<JiraIssue>(
    jira,
    `project = ${jqlString(project)} AND labels = ${jqlString(ATOMIZE_LABEL)} ORDER BY key`,
    JIRA_FIELDS,
  );
  const items: Reading["items"] = new Map();
  for (const issue of found) items.set(issue.key, jiraRead(issue));
  const ours = new Set(group.map((g) => g.remoteId));
  // Issues people made there: children of an issue without the export's label.
  const fresh = await searchAll<JiraIssue>(
    jira,
    `project = ${jqlString(project)} AND parent is not EMPTY AND (labels is EMPTY OR labels != ${jqlString(ATOMIZE_LABEL)}) ORDER BY key`,
    JIRA_FIELDS,
  );
  const added: AddedItem[] = [];
  for (const issue of fresh) {
    const parent = issue.fields?.parent?.key ?? null;
    if (ours.has(issue.key) || !parent || !ours.has(parent)) continue;
    const read = jiraRead(issue);
    added.push({
      remoteId: issue.key,
      key: issue.key,
      url: `${site}/browse/${encodeURIComponent(issue.key)}`,
      title: read.snap.title ?? issue.key,
      text: read.snap.text ?? "",
      parent,
    });
  }
  return { items, added };
}

/**
 * A `jira:issue_updated` event. It fires on any edit, our own re-export's too, so the status applies only
 * when the delivery's changelog has a status item; the issue's fields go to review. The site is the
 * issue's `self` URL's origin: without it the delivery cannot be told from another site's and is ignored.
 */
function jiraChange(p: unknown): Change | null {
  if (!isRecord(p) || p.webhookEvent !== "jira:issue_updated" || !isRecord(p.issue)) return null;
  const key = str(p.issue.key);
  const self = str(p.issue.self);
  if (!key || !self || !/^[A-Z][A-Z0-9_]*-\d+$/.test(key)) return null;
  const origin = originOf(self);
  if (!origin) return null;
  const read = jiraRead(p.issue as JiraIssue);
  const changelog = isRecord(p.changelog) && Array.isArray(p.changelog.items) ? p.changelog.items : null;
  // A changed field by its id ("status"), or by its name where a delivery has no id ("Status").
  const changed = (id: string) =>
    (changelog ?? []).some(
      (i) =>
        isRecord(i) &&
        (i.fieldId === id || (i.fieldId === undefined && String(i.field).toLowerCase() === id)),
    );
  const fields = isRecord(p.issue.fields) ? p.issue.fields : {};
  // The description is judged only when the changelog says it changed: a status move or a re-export of
  // ours that left it alone says nothing new about it, however the delivery writes it (v2 wiki markup).
  const { text: _text, ...rest } = read.snap;
  const snap = changelog && !changed("description") ? rest : read.snap;
  return {
    remoteId: key,
    site: `${origin}|${key.slice(0, key.lastIndexOf("-"))}`,
    state: changed("status") && isRecord(fields.status) ? read.state : null,
    snap,
    at: time(p.timestamp) ?? read.at,
  };
}
