import type { TaskTreeNode } from "../../../../shared/schemas/tasks";
import { taskTitle } from "../../../../shared/task-title";
import { IntegrationError } from "../../../integrations/errors";
import { createHttpClient } from "../../../integrations/http-client";
import { trelloAuthorization } from "../../../integrations/trello/auth";
import { trelloBudgets } from "../../../integrations/trello/budgets";
import { outboundFetch } from "../../../lib/outbound/fetch";
import { exportCounts, previousExport } from "../remote";
import type { Exporter } from "../tracker-deps";
import { LABELS, LISTS, planChecklists } from "./payloads";
import { runTrelloExport } from "./run";
import type { TrelloPlan } from "./types";

function describeTrello(status: number, body: unknown): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (status === 401) return "Trello rejected the API key or token (401). Check them in Settings.";
  return `Trello answered ${status}: ${text.slice(0, 200)}`;
}

/**
 * Board -> lists (To Do, In Progress, Done) -> complexity labels -> a card per task -> checklists
 * (subtasks; acceptance criteria of the matching epic's stories). Labels are made before the cards so
 * each card is created with its label in one request. `prepare` checks the key and token against
 * GET /1/members/me and plans the cards and checklists; `run` writes them.
 */
export const trelloExporter: Exporter<TrelloPlan> = {
  async prepare(ctx) {
    const { deps, secret } = ctx;
    const http = createHttpClient({
      fetch: outboundFetch(deps.config, "user"),
      baseUrl: deps.config.TRELLO_API_URL,
      headers: { authorization: trelloAuthorization(secret.api_key!, secret.token!) },
      concurrency: deps.config.EXPORT_CONCURRENCY,
      rateLimit: { limit: deps.config.TRELLO_REQUESTS_PER_10S, windowMs: deps.config.TRELLO_RATE_WINDOW_MS },
      shared: trelloBudgets(deps, secret.token!, ctx.signal),
      defaultRetryAfterMs: 2000,
      signal: ctx.signal,
      retries: deps.config.EXPORT_HTTP_RETRIES,
      describe: describeTrello,
    });
    await http.request("GET", "/1/members/me", { query: { fields: "username" } });
    const boardId = typeof ctx.config.board_id === "string" ? ctx.config.board_id : null;
    let board: TrelloPlan["board"] = null;
    if (boardId) {
      const found = await http.request<{ id: string; url: string; name: string; closed?: boolean }>(
        "GET",
        `/1/boards/${boardId}`,
        { query: { fields: "name,url,closed" }, expect: [400, 401, 404] },
      );
      if (found.status !== 200 || found.body.closed) {
        throw new IntegrationError(
          "There is no open Trello board with that id, or this account cannot see it. Pick one of your boards.",
          404,
        );
      }
      board = { id: found.body.id, url: found.body.url, name: found.body.name };
    }
    const previous = boardId
      ? await previousExport(deps, ctx.tree.id, "trello", boardId)
      : { byTask: new Map(), removed: [] };
    const cards: TrelloPlan["cards"] = [];
    const walk = (n: TaskTreeNode, path: string[]) => {
      for (const c of n.children) {
        cards.push({ task: c, path });
        walk(c, [...path, taskTitle(c.description, 60)]);
      }
    };
    walk(ctx.tree, []);
    const checklists = planChecklists(ctx.tree);
    return {
      http,
      board,
      previous,
      concurrency: deps.config.EXPORT_CONCURRENCY,
      boardName: String(ctx.config.board_name),
      cards,
      checklists,
      writes: {
        boards: board ? 0 : 1,
        ...exportCounts(
          previous,
          cards.map((c) => c.task.id),
        ),
        lists: LISTS.length,
        labels: LABELS.length,
        cards: cards.length,
        checklists: checklists.length,
        checklist_items: checklists.reduce((n, l) => n + l.items.length, 0),
      },
    };
  },
  run: runTrelloExport,
};
