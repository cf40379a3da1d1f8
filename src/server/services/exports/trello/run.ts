import { complexityBand } from "../../../../shared/complexity";
import { taskTitle } from "../../../../shared/task-title";
import { markRemoved } from "../remote";
import type { ExportContext } from "../tracker-deps";
import { webhookUrlFor } from "../webhooks";
import { boardMarker, cardDescription, cardMarker, hasLine, LABELS, LISTS, listFor } from "./payloads";
import { adopt, createInTurn, eachLimited, findBoard } from "./resume";
import type { Pending, TrelloPlan, TrelloState } from "./types";

/**
 * Board, lists, labels, cards, then checklists with their items. Every create is sent once (`create:
 * true`): when its answer is lost (a timeout, a cut connection, a 5xx) the run fails `unconfirmed` and the
 * runner calls it again. Before each step sends anything, what the state marks pending is looked for
 * first: the board by the marker in its description, lists and labels by name on the board, cards by the
 * `atomize:<task id>` line ending their description, checklists by card and name, check items by count.
 * Trello's reads are consistent, so what a lost request made is listed at once.
 *
 * Each step below is one part of that order; `runTrelloExport` runs them in turn.
 */
export async function runTrelloExport(ctx: ExportContext, plan: TrelloPlan) {
  const state = ctx.state as TrelloState;
  state.pending ??= {};
  const run: Run = { ctx, plan, http: plan.http, state, pending: state.pending };
  const board = await makeBoard(run);
  await registerWebhook(run, board.id);
  const onBoard = plan.board ? await readBoard(run, board.id) : null;
  const lists = await makeLists(run, board.id, onBoard);
  const labels = await makeLabels(run, board.id, onBoard);
  const cards = await makeCards(run, board.id, onBoard, lists, labels);
  const updated = await refreshEarlierCards(run, cards, labels);
  await markDeletedCards(run, onBoard);
  await refreshEarlierChecklists(run, board.id, cards);
  await makeChecklists(run, board.id, cards.ids);
  return outcome(run, board, cards, updated);
}

type Run = {
  ctx: ExportContext;
  plan: TrelloPlan;
  http: TrelloPlan["http"];
  state: TrelloState;
  pending: Pending;
};
type Named = { id: string; name: string };
/** An existing board's lists, labels and cards, read once before anything is made on it. */
type OnBoard = {
  lists: Named[];
  labels: Named[];
  cards: Array<Named & { desc?: string; idLabels?: string[] }>;
};
/** The cards in tree order, their ids by task, and what earlier exports' cards say now. */
type Cards = {
  tasks: TrelloPlan["cards"][number]["task"][];
  paths: Map<string, string[]>;
  ids: Record<string, string>;
  earlier: Map<string, { name: string; desc: string; idLabels: string[] }>;
};

/** The board: the existing one asked for, the one a lost answer made (found by its marker), or a new one. */
async function makeBoard({ ctx, plan, http, state, pending }: Run) {
  if (plan.board) state.board ??= plan.board;
  await ctx.progress(
    "board_creation",
    2,
    plan.board ? `Exporting into the board "${plan.board.name}"` : `Creating the board "${plan.boardName}"`,
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
        name: plan.boardName,
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
  return state.board;
}

/** Status back: the user's Trello webhook on this board, when they made one in Settings. */
async function registerWebhook({ ctx, http, state }: Run, boardId: string) {
  if (state.webhook) return;
  const callbackURL = await webhookUrlFor(ctx.deps, ctx.row.userId, "trello");
  if (!callbackURL) return;
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

/** An existing board: its lists and labels of the same names are used, not made again. */
async function readBoard({ http }: Run, boardId: string): Promise<OnBoard> {
  const read = async <T>(what: string, fields: string) =>
    (await http.request<T>("GET", `/1/boards/${boardId}/${what}`, { query: { fields } })).body;
  return {
    lists: await read<Named[]>("lists", "name"),
    labels: await read<Named[]>("labels", "name"),
    cards: await read<OnBoard["cards"]>("cards", "name,desc,idLabels"),
  };
}

/** To Do, In Progress and Done, by name. */
async function makeLists(run: Run, boardId: string, onBoard: OnBoard | null) {
  const { ctx, http, state, pending } = run;
  await ctx.progress("list_creation", 5, "Creating lists");
  state.lists ??= {};
  const lists = state.lists;
  if (pending.lists?.length) {
    const res = await http.request<Named[]>("GET", `/1/boards/${boardId}/lists`, {
      query: { fields: "name" },
    });
    adopt(pending.lists, lists, (name, taken) => res.body.find((l) => !taken.has(l.id) && l.name === name));
    pending.lists = [];
    await ctx.saveState();
  }
  for (const name of onBoard ? LISTS : []) {
    const found = onBoard?.lists.find((l) => l.name === name);
    if (found && !lists[name]) lists[name] = found.id;
  }
  await createInTurn(ctx, "lists", LISTS, lists, async (name) => {
    const list = await http.request<{ id: string }>("POST", "/1/lists", {
      query: { name, idBoard: boardId, pos: (LISTS.indexOf(name) + 1) * 1024 },
      create: true,
    });
    return list.body.id;
  });
  return lists;
}

/** One label a complexity band, by name. */
async function makeLabels(run: Run, boardId: string, onBoard: OnBoard | null) {
  const { ctx, http, state, pending } = run;
  await ctx.progress("label_creation", 8, "Creating complexity labels");
  state.labels ??= {};
  const labels = state.labels;
  if (pending.labels?.length) {
    const res = await http.request<Named[]>("GET", `/1/boards/${boardId}/labels`, {
      query: { fields: "name" },
    });
    adopt(pending.labels, labels, (band, taken) => {
      const name = LABELS.find((l) => l.band === band)?.name;
      return res.body.find((l) => !taken.has(l.id) && l.name === name);
    });
    pending.labels = [];
    await ctx.saveState();
  }
  for (const l of onBoard ? LABELS : []) {
    const found = onBoard?.labels.find((x) => x.name === l.name);
    if (found && !labels[l.band]) labels[l.band] = found.id;
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
  return labels;
}

/** A card a task, in tree order; earlier exports' cards on the board are kept and updated later, not made again. */
async function makeCards(
  run: Run,
  boardId: string,
  onBoard: OnBoard | null,
  lists: Record<string, string>,
  labels: Record<string, string>,
): Promise<Cards> {
  const { ctx, plan, http, state, pending } = run;
  const tasks = plan.cards.map((c) => c.task);
  const paths = new Map(plan.cards.map((c) => [c.task.id, c.path]));
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  state.cards ??= {};
  const cards = state.cards;
  // What earlier exports made on this board: updated below where it differs, not made again.
  const earlier: Cards["earlier"] = new Map();
  for (const t of tasks) {
    const item = plan.previous.byTask.get(t.id);
    const card = item && onBoard?.cards.find((c) => c.id === item.remoteId);
    if (!card) continue;
    cards[t.id] ??= card.id;
    earlier.set(t.id, { name: card.name, desc: card.desc ?? "", idLabels: card.idLabels ?? [] });
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
  return { tasks, paths, ids: cards, earlier };
}

/**
 * Earlier cards brought up to date. Name and description go in a JSON body, as on create: in the query
 * string a long description, each multi-byte character six or more characters once encoded, makes a
 * request line servers refuse. Labels are added and removed one at a time (`idLabels` on an update
 * replaces the card's set): those a person put on the card stay, and only Atomize's complexity labels
 * that no longer apply go. Returns how many cards changed.
 */
async function refreshEarlierCards({ http, state }: Run, cards: Cards, labels: Record<string, string>) {
  state.refreshed ??= [];
  let updated = 0;
  const ours = new Set(Object.values(labels));
  for (const t of cards.tasks) {
    const now = cards.earlier.get(t.id);
    if (!now || state.refreshed.includes(t.id)) continue;
    const name = taskTitle(t.description, 250);
    const desc = cardDescription(t, cards.paths.get(t.id) ?? []);
    const wanted = labels[complexityBand(t.complexity_score)];
    const card = cards.ids[t.id]!;
    let changed = false;
    if (now.name !== name || now.desc !== desc) {
      await http.request("PUT", `/1/cards/${card}`, { json: { name, desc } });
      changed = true;
    }
    if (wanted && !now.idLabels.includes(wanted)) {
      // 400 "that label is already on the card": someone put it there meanwhile.
      await http.request("POST", `/1/cards/${card}/idLabels`, { query: { value: wanted }, expect: [400] });
      changed = true;
    }
    for (const id of now.idLabels.filter((l) => ours.has(l) && l !== wanted)) {
      await http.request("DELETE", `/1/cards/${card}/idLabels/${id}`, { expect: [404] });
      changed = true;
    }
    if (changed) updated += 1;
    state.refreshed.push(t.id);
  }
  return updated;
}

/** Cards of tasks deleted since get a comment, never a deletion. */
async function markDeletedCards({ ctx, plan, http }: Run, onBoard: OnBoard | null) {
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
}

type ChecklistOnBoard = {
  id: string;
  name: string;
  idCard: string;
  checkItems?: Array<{ id: string; name: string }>;
};

/**
 * Earlier cards' checklists brought up to date item by item (a "Blocked by" item for a dependency removed
 * since goes; new subtasks and dependencies are added); only the checklists Atomize makes.
 */
async function refreshEarlierChecklists({ ctx, plan, http, state }: Run, boardId: string, cards: Cards) {
  state.checklists ??= {};
  state.items ??= {};
  if (!cards.earlier.size) return;
  const res = await http.request<ChecklistOnBoard[]>("GET", `/1/boards/${boardId}/checklists`);
  const ours = new Set(["Blocked by", "Subtasks", "Acceptance criteria"]);
  for (const found of res.body) {
    const cardTask = [...cards.earlier.keys()].find((id) => cards.ids[id] === found.idCard);
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

/** New checklists and their items, one item at a time in order, so those a checklist has are the first planned. */
async function makeChecklists(
  { ctx, plan, http, state, pending }: Run,
  boardId: string,
  cards: Record<string, string>,
) {
  state.checklists ??= {};
  state.items ??= {};
  const { checklists, items } = state;
  const planned = plan.checklists;
  if (pending.checklists?.length || pending.items?.length) {
    await ctx.progress("card_creation", 70, "Looking for checklists a lost answer may have created");
    const res = await http.request<ChecklistOnBoard[]>("GET", `/1/boards/${boardId}/checklists`);
    adopt(pending.checklists ?? [], checklists, (key, taken) => {
      const l = planned.find((x) => x.key === key);
      return (
        l && res.body.find((c) => !taken.has(c.id) && c.idCard === cards[l.cardTask] && c.name === l.name)
      );
    });
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
}

/** The export's result, and what it made there for sync and re-export. */
function outcome(
  { plan, http, state }: Run,
  board: { url: string; name: string; id: string },
  cards: Cards,
  updated: number,
) {
  return {
    cards_created: Object.keys(cards.ids).length - (state.refreshed?.length ?? 0),
    cards_updated: updated,
    cards_marked_removed: plan.previous.removed.length,
    board_name: board.name,
    board_url: board.url,
    warnings: state.webhook && state.webhook !== "registered" ? [state.webhook] : [],
    requests: http.requestCount(),
    remote: {
      target: board.id,
      items: Object.entries(cards.ids).map(([taskId, cardId]) => {
        const task = cards.tasks.find((t) => t.id === taskId);
        return {
          task_id: taskId,
          remote_id: cardId,
          key: `card ${cardId.slice(-6)}`,
          url: `https://trello.com/c/${cardId}`,
          // What this export wrote there; Trello keeps no parent, and its labels carry no story points.
          ...(task
            ? {
                sent: {
                  title: taskTitle(task.description, 250),
                  text: cardDescription(task, cards.paths.get(task.id) ?? []),
                  story_points: null,
                },
              }
            : {}),
        };
      }),
    },
  };
}
