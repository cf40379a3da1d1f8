import { complexityBand } from "../../../shared/complexity";
import { formatRange } from "../../../shared/estimate-text";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { fitText, taskTitle } from "../../../shared/task-title";
import {
  type ExportContext,
  type Exporter,
  type ExportPlan,
  subtasksOf,
} from "../../services/exports/runner";
import { createHttpClient, type HttpClient } from "../http-client";

const LISTS = ["To Do", "In Progress", "Done"] as const;
const LABELS = [
  { band: "high", name: "Complexity: High", color: "red" },
  { band: "medium", name: "Complexity: Medium", color: "yellow" },
  { band: "low", name: "Complexity: Low", color: "green" },
] as const;

type TrelloState = {
  board?: { id: string; url: string; name: string };
  lists?: Record<string, string>;
  labels?: Record<string, string>;
  cards?: Record<string, string>;
  pendingCards?: string[];
  checklists?: Record<string, string>;
  items?: Record<string, number>;
};

function describeTrello(status: number, body: unknown): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (status === 401) return "Trello rejected the API key or token (401). Check them in Settings.";
  return `Trello answered ${status}: ${text.slice(0, 200)}`;
}

function listFor(task: TaskTreeNode): (typeof LISTS)[number] {
  if (task.status === "completed") return "Done";
  if (task.status === "in_progress" || task.status === "processing") return "In Progress";
  return "To Do";
}

function cardDescription(task: TaskTreeNode, path: string[]): string {
  return [
    task.description,
    task.implementation_details ? `**Implementation:** ${task.implementation_details}` : "",
    `**Complexity:** ${task.complexity_score ?? "?"}/10 · **Story points:** ${task.story_points ?? "?"}${
      task.estimate_hours ? ` · **Estimate:** ${formatRange(task.estimate_hours)}` : ""
    }`,
    path.length ? `**Part of:** ${path.join(" › ")}` : "",
  ]
    .filter(Boolean)
    .join("\n\n")
    .slice(0, 16_000);
}

type Checklist = {
  key: string;
  cardTask: string;
  name: string;
  items: Array<{ name: string; checked: boolean }>;
};

type TrelloPlan = ExportPlan & {
  http: HttpClient;
  boardName: string;
  /** Cards in tree order, each with the path of titles above it. */
  cards: Array<{ task: TaskTreeNode; path: string[] }>;
  checklists: Checklist[];
};

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
      baseUrl: deps.config.TRELLO_API_URL,
      headers: {
        authorization: `OAuth oauth_consumer_key="${secret.api_key}", oauth_token="${secret.token}"`,
      },
      concurrency: deps.config.EXPORT_CONCURRENCY,
      rateLimit: { limit: deps.config.TRELLO_REQUESTS_PER_10S, windowMs: 10_000 },
      defaultRetryAfterMs: 2000,
      signal: ctx.signal,
      retries: deps.config.EXPORT_HTTP_RETRIES,
      describe: describeTrello,
    });
    await http.request("GET", "/1/members/me", { query: { fields: "username" } });
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
      boardName: String(ctx.config.board_name),
      cards,
      checklists,
      writes: {
        boards: 1,
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

/**
 * Checklists: subtasks of every card with children; "Blocked by" on every card whose task waits for
 * others (checked once the blocker is done); acceptance criteria on first-level cards.
 */
function planChecklists(tree: TaskTreeNode): Checklist[] {
  const lists: Checklist[] = [];
  const exported = new Map(subtasksOf(tree).map((t) => [t.id, t]));
  for (const t of exported.values()) {
    const blockers = t.depends_on.flatMap((id) => exported.get(id) ?? []);
    if (blockers.length === 0) continue;
    lists.push({
      key: `${t.id}:blocked-by`,
      cardTask: t.id,
      name: "Blocked by",
      items: blockers.map((b) => ({
        name: taskTitle(b.description, 200),
        checked: b.status === "completed",
      })),
    });
  }
  for (const t of subtasksOf(tree)) {
    if (t.children.length === 0) continue;
    lists.push({
      key: `${t.id}:subtasks`,
      cardTask: t.id,
      name: "Subtasks",
      items: t.children.map((c) => ({
        name: taskTitle(c.description, 200),
        checked: c.status === "completed",
      })),
    });
  }
  const epics = tree.context?.epics ?? [];
  const stories = tree.context?.user_stories ?? [];
  if (epics.length === tree.children.length) {
    tree.children.forEach((first, i) => {
      const criteria = stories
        .filter((s) => s.epic_id === epics[i]!.id)
        .flatMap((s) => s.acceptance_criteria);
      if (criteria.length) {
        lists.push({
          key: `${first.id}:criteria`,
          cardTask: first.id,
          name: "Acceptance criteria",
          items: criteria.slice(0, 30).map((c) => ({ name: fitText(c, 200), checked: false })),
        });
      }
    });
  }
  return lists;
}

async function runTrelloExport(ctx: ExportContext, plan: TrelloPlan) {
  const { http, boardName } = plan;
  const state = ctx.state as TrelloState;

  await ctx.progress("board_creation", 2, `Creating the board "${boardName}"`);
  if (!state.board) {
    const board = await http.request<{ id: string; url: string; name: string }>("POST", "/1/boards", {
      json: {
        name: boardName,
        defaultLists: false,
        defaultLabels: false,
        desc: taskTitle(ctx.tree.description, 500),
      },
    });
    state.board = { id: board.body.id, url: board.body.url, name: board.body.name };
    await ctx.saveState();
  }
  const boardId = state.board.id;

  await ctx.progress("list_creation", 5, "Creating lists");
  state.lists ??= {};
  for (const [i, name] of LISTS.entries()) {
    if (state.lists[name]) continue;
    const list = await http.request<{ id: string }>("POST", "/1/lists", {
      json: { name, idBoard: boardId, pos: (i + 1) * 1024 },
    });
    state.lists[name] = list.body.id;
    await ctx.saveState();
  }

  await ctx.progress("label_creation", 8, "Creating complexity labels");
  state.labels ??= {};
  for (const label of LABELS) {
    if (state.labels[label.band]) continue;
    const created = await http.request<{ id: string }>("POST", "/1/labels", {
      json: { name: label.name, color: label.color, idBoard: boardId },
    });
    state.labels[label.band] = created.body.id;
    await ctx.saveState();
  }

  // Cards, in tree order; after an interruption, cards Trello did create are matched by name first.
  const tasks = plan.cards.map((c) => c.task);
  const paths = new Map(plan.cards.map((c) => [c.task.id, c.path]));
  state.cards ??= {};
  if (state.pendingCards?.length) await reconcileCards(http, boardId, tasks, state);
  const todo = tasks.filter((t) => !state.cards![t.id]);
  let made = tasks.length - todo.length;
  state.pendingCards = todo.map((t) => t.id);
  await ctx.saveState();
  await Promise.all(
    todo.map(async (t, i) => {
      const card = await http.request<{ id: string }>("POST", "/1/cards", {
        json: {
          idList: state.lists![listFor(t)],
          name: taskTitle(t.description, 250),
          desc: cardDescription(t, paths.get(t.id) ?? []),
          idLabels: [state.labels![complexityBand(t.complexity_score)]],
          pos: (i + 1) * 1024,
        },
      });
      state.cards![t.id] = card.body.id;
      made += 1;
      if (made % 10 === 0 || made === tasks.length) {
        await ctx.saveState();
        await ctx.progress(
          "card_creation",
          10 + (60 * made) / tasks.length,
          `Created ${made} of ${tasks.length} cards`,
        );
      }
    }),
  );
  state.pendingCards = [];
  await ctx.saveState();

  state.checklists ??= {};
  state.items ??= {};
  const lists = plan.checklists;
  const totalItems = lists.reduce((n, l) => n + l.items.length, 0);
  let itemsDone = Object.values(state.items).reduce((n, v) => n + v, 0);
  await Promise.all(
    lists.map(async (l) => {
      if (!state.checklists![l.key]) {
        const created = await http.request<{ id: string }>("POST", "/1/checklists", {
          json: { idCard: state.cards![l.cardTask], name: l.name },
        });
        state.checklists![l.key] = created.body.id;
      }
      const id = state.checklists![l.key]!;
      for (let i = state.items![l.key] ?? 0; i < l.items.length; i++) {
        const item = l.items[i]!;
        await http.request("POST", `/1/checklists/${id}/checkItems`, {
          json: { name: item.name, checked: item.checked },
        });
        state.items![l.key] = i + 1;
        itemsDone += 1;
        if (itemsDone % 10 === 0 || itemsDone === totalItems) {
          await ctx.saveState();
          await ctx.progress(
            "card_creation",
            70 + (28 * itemsDone) / Math.max(1, totalItems),
            `Added ${itemsDone} of ${totalItems} checklist items`,
          );
        }
      }
    }),
  );
  await ctx.saveState();
  return {
    cards_created: Object.keys(state.cards).length,
    board_name: state.board.name,
    board_url: state.board.url,
    requests: http.requestCount(),
  };
}

async function reconcileCards(http: HttpClient, boardId: string, tasks: TaskTreeNode[], state: TrelloState) {
  const res = await http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${boardId}/cards`, {
    query: { fields: "name" },
  });
  const taken = new Set(Object.values(state.cards ?? {}));
  for (const id of state.pendingCards ?? []) {
    const t = tasks.find((x) => x.id === id);
    const match = t && res.body.find((c) => !taken.has(c.id) && c.name === taskTitle(t.description, 250));
    if (match) {
      state.cards![id] = match.id;
      taken.add(match.id);
    }
  }
  state.pendingCards = [];
}
