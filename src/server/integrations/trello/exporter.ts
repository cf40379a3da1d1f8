import { complexityBand } from "../../../shared/complexity";
import { formatRange } from "../../../shared/estimate-text";
import type { TaskTreeNode } from "../../../shared/schemas/tasks";
import { fitText, taskTitle } from "../../../shared/task-title";
import { outboundFetch } from "../../lib/outbound/fetch";
import {
  exportCounts,
  markRemoved,
  type PreviousExport,
  previousExport,
} from "../../services/exports/remote";
import {
  type ExportContext,
  type Exporter,
  type ExportPlan,
  subtasksOf,
} from "../../services/exports/runner";
import { webhookUrlFor } from "../../services/exports/webhooks";
import { IntegrationError } from "../errors";
import { createHttpClient, type HttpClient } from "../http-client";
import { trelloAuthorization } from "./auth";

const LISTS = ["To Do", "In Progress", "Done"] as const;
const LABELS = [
  { band: "high", name: "Complexity: High", color: "red" },
  { band: "medium", name: "Complexity: Medium", color: "yellow" },
  { band: "low", name: "Complexity: Low", color: "green" },
] as const;

/**
 * What this export made so far, saved after every step. `pending` names what a create was sent for and
 * not yet confirmed (its answer may have been lost after Trello made it): the next run looks for those
 * on the board before it creates anything again.
 */
type TrelloState = {
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
type Pending = {
  board?: boolean;
  lists?: string[];
  labels?: string[];
  cards?: string[];
  checklists?: string[];
  /** Checklist keys whose items were being added. */
  items?: string[];
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

/** The line at the end of a card's description that says which task it is, so a resumed export finds it. */
export function cardMarker(taskId: string): string {
  return `atomize:${taskId}`;
}

/** The line in the board's description that marks this export's board. */
export function boardMarker(exportId: string): string {
  return `atomize-export-${exportId.replace(/-/g, "").slice(0, 12)}`;
}

const hasLine = (text: string | undefined, line: string) =>
  (text ?? "").split(/\r?\n/).some((l) => l.trim() === line);

function cardDescription(task: TaskTreeNode, path: string[]): string {
  const text = [
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
  // Within Trello's 16,384 characters with the marker.
  return `${text}\n\n${cardMarker(task.id)}`;
}

type Checklist = {
  key: string;
  cardTask: string;
  name: string;
  items: Array<{ name: string; checked: boolean }>;
};

type TrelloPlan = ExportPlan & {
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
      rateLimit: { limit: deps.config.TRELLO_REQUESTS_PER_10S, windowMs: 10_000 },
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

/**
 * Board, lists, labels, cards, then checklists with their items. Every create is sent once (`create:
 * true`): when its answer is lost (a timeout, a cut connection, a 5xx) the run fails `unconfirmed` and the
 * runner calls it again. Before each step sends anything, what the state marks pending is looked for
 * first: the board by the marker in its description, lists and labels by name on the board, cards by the
 * `atomize:<task id>` line ending their description, checklists by card and name, check items by count.
 * Trello's reads are consistent, so what a lost request made is listed at once.
 */
async function runTrelloExport(ctx: ExportContext, plan: TrelloPlan) {
  const { http, boardName } = plan;
  const state = ctx.state as TrelloState;
  state.pending ??= {};
  const pending = state.pending;

  // -- the board -----------------------------------------------------------------------------------
  if (plan.board) state.board ??= plan.board;
  await ctx.progress(
    "board_creation",
    2,
    plan.board ? `Exporting into the board "${plan.board.name}"` : `Creating the board "${boardName}"`,
  );
  const marker = boardMarker(ctx.row.id);
  if (!state.board && pending.board) {
    const found = await findBoard(http, marker);
    if (found) state.board = found;
    pending.board = false;
    await ctx.saveState();
  }
  if (!state.board) {
    pending.board = true;
    await ctx.saveState();
    const board = await http.request<{ id: string; url: string; name: string }>("POST", "/1/boards", {
      query: {
        name: boardName,
        defaultLists: false,
        defaultLabels: false,
        desc: `${taskTitle(ctx.tree.description, 500)}\n\n${marker}`,
      },
      create: true,
    });
    state.board = { id: board.body.id, url: board.body.url, name: board.body.name };
    pending.board = false;
    await ctx.saveState();
  }
  const boardId = state.board.id;

  // -- status back: the user's Trello webhook on this board, when they made one in Settings ---------
  if (!state.webhook) {
    const callbackURL = await webhookUrlFor(ctx.deps, ctx.row.userId, "trello");
    if (callbackURL) {
      const hook = await http.request<{ message?: string } | string>("POST", "/1/webhooks", {
        query: { callbackURL, idModel: boardId, description: "Atomize: card moves update their tasks" },
        expect: [400],
      });
      const why = typeof hook.body === "string" ? hook.body : (hook.body?.message ?? "");
      state.webhook =
        hook.status === 200 || /already exists/i.test(why)
          ? "registered"
          : `Trello did not register the status webhook (${why.slice(0, 200)}); use Sync now instead.`;
      await ctx.saveState();
    }
  }

  // -- lists and labels, by name ---------------------------------------------------------------------
  await ctx.progress("list_creation", 5, "Creating lists");
  state.lists ??= {};
  const lists = state.lists;
  if (pending.lists?.length) {
    const res = await http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${boardId}/lists`, {
      query: { fields: "name" },
    });
    adopt(pending.lists, lists, (name, taken) => res.body.find((l) => !taken.has(l.id) && l.name === name));
    pending.lists = [];
    await ctx.saveState();
  }
  // An existing board: its lists and labels of the same names are used, not made again.
  const onBoard = plan.board
    ? {
        lists: (
          await http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${boardId}/lists`, {
            query: { fields: "name" },
          })
        ).body,
        labels: (
          await http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${boardId}/labels`, {
            query: { fields: "name" },
          })
        ).body,
        cards: (
          await http.request<Array<{ id: string; name: string; desc?: string }>>(
            "GET",
            `/1/boards/${boardId}/cards`,
            { query: { fields: "name,desc" } },
          )
        ).body,
      }
    : null;
  if (onBoard) {
    for (const name of LISTS) {
      const found = onBoard.lists.find((l) => l.name === name);
      if (found && !lists[name]) lists[name] = found.id;
    }
  }
  await createInTurn(ctx, "lists", LISTS, lists, async (name) => {
    const list = await http.request<{ id: string }>("POST", "/1/lists", {
      query: { name, idBoard: boardId, pos: (LISTS.indexOf(name) + 1) * 1024 },
      create: true,
    });
    return list.body.id;
  });

  await ctx.progress("label_creation", 8, "Creating complexity labels");
  state.labels ??= {};
  const labels = state.labels;
  if (pending.labels?.length) {
    const res = await http.request<Array<{ id: string; name: string }>>(
      "GET",
      `/1/boards/${boardId}/labels`,
      {
        query: { fields: "name" },
      },
    );
    adopt(pending.labels, labels, (band, taken) => {
      const name = LABELS.find((l) => l.band === band)?.name;
      return res.body.find((l) => !taken.has(l.id) && l.name === name);
    });
    pending.labels = [];
    await ctx.saveState();
  }
  if (onBoard) {
    for (const l of LABELS) {
      const found = onBoard.labels.find((x) => x.name === l.name);
      if (found && !labels[l.band]) labels[l.band] = found.id;
    }
  }
  await createInTurn(
    ctx,
    "labels",
    LABELS.map((l) => l.band),
    labels,
    async (band) => {
      const label = LABELS.find((l) => l.band === band)!;
      const created = await http.request<{ id: string }>("POST", "/1/labels", {
        query: { name: label.name, color: label.color, idBoard: boardId },
        create: true,
      });
      return created.body.id;
    },
  );

  // -- cards, in tree order ----------------------------------------------------------------------------
  const tasks = plan.cards.map((c) => c.task);
  const paths = new Map(plan.cards.map((c) => [c.task.id, c.path]));
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  state.cards ??= {};
  const cards = state.cards;
  // What earlier exports made on this board: updated below where it differs, not made again.
  const earlier = new Map<string, { name: string; desc: string }>();
  for (const t of tasks) {
    const item = plan.previous.byTask.get(t.id);
    const card = item && onBoard?.cards.find((c) => c.id === item.remoteId);
    if (!card) continue;
    cards[t.id] ??= card.id;
    earlier.set(t.id, { name: card.name, desc: card.desc ?? "" });
  }
  if (pending.cards?.length) {
    await ctx.progress("card_creation", 10, "Looking for cards a lost answer may have created");
    const res = await http.request<Array<{ id: string; desc?: string }>>(
      "GET",
      `/1/boards/${boardId}/cards`,
      {
        query: { fields: "desc" },
      },
    );
    adopt(pending.cards, cards, (taskId, taken) =>
      res.body.find((c) => !taken.has(c.id) && hasLine(c.desc, cardMarker(taskId))),
    );
    pending.cards = [];
    await ctx.saveState();
  }
  const todo = tasks.filter((t) => !cards[t.id]);
  let made = tasks.length - todo.length;
  if (todo.length) {
    pending.cards = todo.map((t) => t.id);
    await ctx.saveState();
  }
  await eachLimited(todo, plan.concurrency, async (t) => {
    const card = await http.request<{ id: string }>("POST", "/1/cards", {
      // The one create whose parameters Trello documents as a JSON body too: descriptions can be long.
      json: {
        idList: lists[listFor(t)],
        name: taskTitle(t.description, 250),
        desc: cardDescription(t, paths.get(t.id) ?? []),
        idLabels: [labels[complexityBand(t.complexity_score)]],
        pos: (order.get(t.id)! + 1) * 1024,
      },
      create: true,
    });
    cards[t.id] = card.body.id;
    made += 1;
    if (made % 10 === 0 || made === tasks.length) {
      await ctx.saveState();
      await ctx.progress(
        "card_creation",
        10 + (60 * made) / tasks.length,
        `Created ${made} of ${tasks.length} cards`,
      );
    }
  });
  pending.cards = [];
  await ctx.saveState();

  // -- earlier cards brought up to date; cards of deleted tasks get a comment, never a deletion ------
  state.refreshed ??= [];
  let updated = 0;
  for (const t of tasks) {
    const now = earlier.get(t.id);
    if (!now || state.refreshed.includes(t.id)) continue;
    const name = taskTitle(t.description, 250);
    const desc = cardDescription(t, paths.get(t.id) ?? []);
    if (now.name !== name || now.desc !== desc) {
      await http.request("PUT", `/1/cards/${cards[t.id]}`, {
        query: { name, desc, idLabels: labels[complexityBand(t.complexity_score)] },
      });
      updated += 1;
    }
    state.refreshed.push(t.id);
  }
  for (const item of plan.previous.removed) {
    if (!onBoard?.cards.some((c) => c.id === item.remoteId)) continue;
    await http.request("POST", `/1/cards/${item.remoteId}/actions/comments`, {
      query: {
        text: "Atomize: this card's task was deleted from the plan. The card is kept; archive it if it is done with.",
      },
      create: true,
    });
  }
  await markRemoved(
    ctx.deps,
    plan.previous.removed.map((r) => r.id),
  );
  await ctx.saveState();

  // -- checklists and their items ----------------------------------------------------------------------
  state.checklists ??= {};
  state.items ??= {};
  // Earlier cards' checklists are brought up to date item by item (a "Blocked by" item for a dependency
  // removed since goes; new subtasks and dependencies are added); only the checklists Atomize makes.
  if (earlier.size) {
    const res = await http.request<
      Array<{ id: string; name: string; idCard: string; checkItems?: Array<{ id: string; name: string }> }>
    >("GET", `/1/boards/${boardId}/checklists`);
    const ours = new Set(["Blocked by", "Subtasks", "Acceptance criteria"]);
    for (const found of res.body) {
      const cardTask = [...earlier.keys()].find((id) => cards[id] === found.idCard);
      if (!cardTask || !ours.has(found.name)) continue;
      const l = plan.checklists.find((x) => x.cardTask === cardTask && x.name === found.name);
      const wanted = new Set(l?.items.map((i) => i.name) ?? []);
      for (const item of found.checkItems ?? []) {
        if (!wanted.has(item.name))
          await http.request("DELETE", `/1/checklists/${found.id}/checkItems/${item.id}`, { expect: [404] });
      }
      if (!l || state.checklists[l.key]) continue;
      const have = new Set((found.checkItems ?? []).map((i) => i.name));
      for (const item of l.items.filter((i) => !have.has(i.name))) {
        // Sent once: after a lost answer this sync runs again and adds only what is still missing.
        await http.request("POST", `/1/checklists/${found.id}/checkItems`, {
          query: { name: item.name, checked: item.checked },
          create: true,
        });
      }
      state.checklists[l.key] = found.id;
      state.items[l.key] = l.items.length;
    }
    await ctx.saveState();
  }
  const checklists = state.checklists;
  const items = state.items;
  const planned = plan.checklists;
  if (pending.checklists?.length || pending.items?.length) {
    await ctx.progress("card_creation", 70, "Looking for checklists a lost answer may have created");
    const res = await http.request<
      Array<{ id: string; name: string; idCard: string; checkItems?: Array<{ id: string }> }>
    >("GET", `/1/boards/${boardId}/checklists`);
    adopt(pending.checklists ?? [], checklists, (key, taken) => {
      const l = planned.find((x) => x.key === key);
      return (
        l && res.body.find((c) => !taken.has(c.id) && c.idCard === cards[l.cardTask] && c.name === l.name)
      );
    });
    // Items go on one at a time, in order, so those a checklist has are the first ones planned.
    for (const key of new Set([...(pending.checklists ?? []), ...(pending.items ?? [])])) {
      const l = planned.find((x) => x.key === key);
      const found = res.body.find((c) => c.id === checklists[key]);
      if (l && found) items[key] = Math.min(l.items.length, found.checkItems?.length ?? 0);
    }
    pending.checklists = [];
    pending.items = [];
    await ctx.saveState();
  }
  const totalItems = planned.reduce((n, l) => n + l.items.length, 0);
  let itemsDone = Object.values(items).reduce((n, v) => n + v, 0);
  const unfinished = planned.filter((l) => !checklists[l.key] || (items[l.key] ?? 0) < l.items.length);
  if (unfinished.length) {
    pending.checklists = unfinished.filter((l) => !checklists[l.key]).map((l) => l.key);
    pending.items = unfinished.map((l) => l.key);
    await ctx.saveState();
  }
  await eachLimited(unfinished, plan.concurrency, async (l) => {
    if (!checklists[l.key]) {
      const created = await http.request<{ id: string }>("POST", "/1/checklists", {
        query: { idCard: cards[l.cardTask], name: l.name },
        create: true,
      });
      checklists[l.key] = created.body.id;
    }
    const id = checklists[l.key]!;
    for (let i = items[l.key] ?? 0; i < l.items.length; i++) {
      const item = l.items[i]!;
      await http.request("POST", `/1/checklists/${id}/checkItems`, {
        query: { name: item.name, checked: item.checked },
        create: true,
      });
      items[l.key] = i + 1;
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
  });
  pending.checklists = [];
  pending.items = [];
  await ctx.saveState();
  return {
    cards_created: Object.keys(cards).length - state.refreshed.length,
    cards_updated: updated,
    cards_marked_removed: plan.previous.removed.length,
    board_name: state.board.name,
    board_url: state.board.url,
    warnings: state.webhook && state.webhook !== "registered" ? [state.webhook] : [],
    requests: http.requestCount(),
    remote: {
      target: state.board.id,
      items: Object.entries(cards).map(([taskId, cardId]) => ({
        task_id: taskId,
        remote_id: cardId,
        key: `card ${cardId.slice(-6)}`,
        url: `https://trello.com/c/${cardId}`,
      })),
    },
  };
}

/** This export's board among the member's open boards, by the marker line in its description. */
async function findBoard(http: HttpClient, marker: string) {
  const res = await http.request<Array<{ id: string; name: string; desc?: string; url: string }>>(
    "GET",
    "/1/members/me/boards",
    { query: { fields: "name,desc,url", filter: "open" } },
  );
  const board = res.body.find((b) => hasLine(b.desc, marker));
  return board && { id: board.id, url: board.url, name: board.name };
}

/** Records, for each pending key not yet known, the object `find` recognises as made for it. */
function adopt(
  keys: string[],
  known: Record<string, string>,
  find: (key: string, taken: Set<string>) => { id: string } | undefined,
) {
  const taken = new Set(Object.values(known));
  for (const key of keys) {
    if (known[key]) continue;
    const match = find(key, taken);
    if (match) {
      known[key] = match.id;
      taken.add(match.id);
    }
  }
}

/** Creates the missing ones of `keys` one at a time, marked pending (and saved) before the first is sent. */
async function createInTurn<K extends string>(
  ctx: ExportContext,
  kind: "lists" | "labels",
  keys: readonly K[],
  known: Record<string, string>,
  create: (key: K) => Promise<string>,
) {
  const pending = (ctx.state as TrelloState).pending!;
  const todo = keys.filter((k) => !known[k]);
  if (todo.length === 0) return;
  pending[kind] = todo;
  await ctx.saveState();
  for (const key of todo) {
    known[key] = await create(key);
    await ctx.saveState();
  }
  pending[kind] = [];
  await ctx.saveState();
}

/**
 * `fn` for each item, at most `limit` at a time. After a failure no further item starts, and the ones
 * under way are waited for before the first error is thrown: a resumed run must not begin while writes of
 * this one are still in flight, or it could look for them before they land and create them again.
 */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
