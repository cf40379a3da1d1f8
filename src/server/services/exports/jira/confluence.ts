import { IntegrationError } from "../../../integrations/errors";
import type { HttpClient } from "../../../integrations/http-client";
import type { ExportContext } from "../tracker-deps";
import { describeJira } from "./errors";
import { canonicalStorage } from "./storage-canonical";
import type { JiraState } from "./types";

function xhtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The Confluence pages: tech stack, best practices, standards (title, storage-format body). */
export function confluenceDocuments(ctx: ExportContext, projectName: string): Array<[string, string]> {
  const context = ctx.tree.context;
  const stack = context?.tech_stack;
  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${xhtml(i)}</li>`).join("")}</ul>`;
  return [
    [
      `${projectName}: Tech Stack`,
      `<p>${xhtml(stack?.description ?? "Technology choices for this project.")}</p>${list(
        [
          stack?.frontend && `Frontend: ${stack.frontend}`,
          stack?.backend && `Backend: ${stack.backend}`,
          stack?.database && `Database: ${stack.database}`,
          stack?.deployment && `Deployment: ${stack.deployment}`,
        ].filter((x): x is string => Boolean(x)),
      )}`,
    ],
    [
      `${projectName}: Best Practices`,
      list(
        context?.best_practices?.length
          ? context.best_practices
          : ["Review AI-generated plans before committing to them."],
      ),
    ],
    [
      `${projectName}: Standards`,
      `<p>Every issue carries the label <code>atomize</code>, a complexity label (<code>complexity-low</code>, <code>complexity-medium</code>, <code>complexity-high</code>: scores below 5, 5-7, 8 and above) and its story points. Epics carry the highest complexity found below them.</p>${list(
        (context?.epics ?? []).map((e) => `${e.title} (priority ${e.priority})`),
      )}`,
    ],
  ];
}

/**
 * The pages go into the Confluence space with the project's key (or the one the user chose), created when
 * it does not exist (Confluence's v1 API: v2 reads spaces but creates them only on some sites). A site
 * without Confluence, an account that may not create spaces, and Confluence refusing or failing (a scoped
 * API token made for Jira alone is refused there with a 401) each give a visible note instead of pages:
 * the issues are made by then, so the export still succeeds, and exporting again adds the pages.
 */
export async function writeConfluencePages(
  ctx: ExportContext,
  wiki: HttpClient,
  spaceKey: string,
  projectName: string,
  documents: Array<[string, string]>,
): Promise<{ pages: number; note: string | null }> {
  const written = { pages: 0 };
  try {
    return await writePages(ctx, wiki, spaceKey, projectName, documents, written);
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof IntegrationError)) throw err;
    const note = confluenceNote(err, spaceKey, written.pages, documents.length);
    await ctx.progress("label_update", 98, note);
    return { pages: written.pages, note };
  }
}

/** Why the pages (or some of them) were not written, in Confluence's name, not JIRA's. */
export function confluenceNote(err: IntegrationError, spaceKey: string, written: number, total: number) {
  const what =
    written > 0
      ? `so ${total - written} of the ${total} pages were not written`
      : "so the tech stack, best practices and standards pages were not written";
  const status = err.serviceStatus;
  if (status === 401)
    return `Confluence refused this API token (401), ${what}. A scoped API token works for one app only: use an unscoped token, or one with Confluence scopes, and export again to add the pages.`;
  const detail = confluenceDetail(err.body);
  if (status === 403)
    return `Confluence refused the request (403)${detail ? `: ${detail}` : ""}, ${what}. Check that this account may add pages to the space ${spaceKey}, then export again.`;
  if (status === null)
    return `Confluence could not be reached (${err.message}), ${what}. Export again to add them.`;
  return `Confluence answered ${status}${detail ? `: ${detail}` : ""}, ${what}. Export again to add them.`;
}

/** Confluence's words from an error body: v2's `errors[].title`, v1's `message`, or text. */
function confluenceDetail(body: unknown): string {
  if (typeof body === "string") return body.trim().slice(0, 200);
  if (typeof body !== "object" || body === null) return "";
  const b = body as { errors?: Array<{ title?: unknown }>; message?: unknown; errorMessages?: unknown };
  const titles = Array.isArray(b.errors)
    ? b.errors.map((e) => e?.title).filter((t) => typeof t === "string")
    : [];
  if (titles.length) return titles.join("; ").slice(0, 200);
  if (typeof b.message === "string") return b.message.slice(0, 200);
  if (Array.isArray(b.errorMessages)) return b.errorMessages.filter((m) => typeof m === "string").join("; ");
  return "";
}

async function writePages(
  ctx: ExportContext,
  wiki: HttpClient,
  spaceKey: string,
  projectName: string,
  documents: Array<[string, string]>,
  progress: { pages: number },
): Promise<{ pages: number; note: string | null }> {
  const state = ctx.state as JiraState;
  const findSpace = async () => {
    const res = await wiki.request<{ results?: Array<{ id: string }> }>("GET", "/wiki/api/v2/spaces", {
      query: { keys: spaceKey },
      expect: [404],
    });
    return res.status === 404 ? "no-confluence" : (res.body.results?.[0] ?? null);
  };
  let space: { id: string } | "no-confluence" | null = await findSpace();
  if (space === "no-confluence") {
    const note =
      "This Atlassian site has no Confluence, so the tech stack, best practices and standards pages were not written.";
    await ctx.progress("label_update", 98, note);
    return { pages: 0, note };
  }
  if (!space) {
    const created = await wiki.request<{ message?: string }>("POST", "/wiki/rest/api/space", {
      json: {
        key: spaceKey,
        name: projectName.slice(0, 200),
        description: { plain: { value: `Planned with Atomize: ${projectName}`, representation: "plain" } },
      },
      expect: [400, 403],
      create: true,
    });
    if (created.status === 403) {
      const note = `This account may not create Confluence spaces, so the pages were not written. Ask a Confluence admin for a space with the key ${spaceKey}, or choose an existing space, and export again.`;
      await ctx.progress("label_update", 98, note);
      return { pages: 0, note };
    }
    if (created.status === 400 && !/already exists/i.test(String(created.body?.message ?? ""))) {
      throw new IntegrationError(describeJira(400, created.body), 400);
    }
    const listed = await findSpace();
    if (!listed || listed === "no-confluence") {
      throw new IntegrationError("Confluence created the space but does not list it yet.", 503, null, true);
    }
    space = listed;
  }
  let written = 0;
  for (const [title, value] of documents) {
    if (state.pages![title]) {
      written += 1;
      progress.pages = written;
      continue;
    }
    const res = await wiki.request<{ id?: string }>("POST", "/wiki/api/v2/pages", {
      json: { spaceId: space.id, status: "current", title, body: { representation: "storage", value } },
      expect: [400],
      create: true,
    });
    if (res.status === 400 && !JSON.stringify(res.body).includes("already exists")) {
      throw new IntegrationError(describeJira(400, res.body), 400);
    }
    // A page an earlier export wrote (or one a lost answer made): brought up to date, a new version.
    if (res.status === 400) await rewritePage(wiki, space.id, title, value);
    state.pages![title] = res.body.id ?? "existing";
    written += 1;
    progress.pages = written;
    await ctx.saveState();
    await ctx.progress(
      "label_update",
      88 + (10 * written) / documents.length,
      `Wrote Confluence page ${written} of ${documents.length}`,
    );
  }
  return { pages: written, note: null };
}

/**
 * Updates the page with this title in the space when it says something else (Confluence keeps the old
 * version). Compared in canonical form: Confluence stores a body re-serialised, not as sent.
 */
async function rewritePage(wiki: HttpClient, spaceId: string, title: string, value: string) {
  const found = await wiki.request<{
    results?: Array<{ id: string; version?: { number?: number }; body?: { storage?: { value?: string } } }>;
  }>("GET", `/wiki/api/v2/spaces/${encodeURIComponent(spaceId)}/pages`, {
    query: { title, "body-format": "storage" },
  });
  const page = found.body.results?.[0];
  if (!page) return;
  if (canonicalStorage(page.body?.storage?.value ?? "") === canonicalStorage(value)) return;
  await wiki.request("PUT", `/wiki/api/v2/pages/${encodeURIComponent(page.id)}`, {
    json: {
      id: page.id,
      status: "current",
      title,
      body: { representation: "storage", value },
      version: { number: (page.version?.number ?? 1) + 1, message: "Updated by Atomize" },
    },
  });
}
