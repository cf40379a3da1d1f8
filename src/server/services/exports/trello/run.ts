import { complexityBand } from "../../../../shared/complexity";
import { taskTitle } from "../../../../shared/task-title";
import { markRemoved } from "../remote";
import type { ExportContext } from "../runner";
import { webhookUrlFor } from "../webhooks";
import { boardMarker, cardDescription, cardMarker, hasLine, LABELS, LISTS, listFor } from "./payloads";
import { adopt, createInTurn, eachLimited, findBoard } from "./resume";
import type { TrelloPlan, TrelloState } from "./types";

/**
 * Board, lists, labels, cards, then checklists with their items. Every create is sent once (`create:
 * true`): when its answer is lost (a timeout, a cut connection, a 5xx) the run fails `unconfirmed` and the
 * runner calls it again. Before each step sends anything, what the state marks pending is looked for
 * first: the board by the marker in its description, lists and labels by name on the board, cards by the
 * `atomize:<task id>` line ending their description, checklists by card and name, check items by count.
 * Trello's reads are consistent, so what a lost request made is listed at once.
 */
export async function runTrelloExport(ctx: ExportContext, plan: TrelloPlan) {
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
          await http.request<Array<{ id: string; name: string; desc?: string; idLabels?: string[] }>>(
            "GET",
            `/1/boards/${boardId}/cards`,
            { query: { fields: "name,desc,idLabels" } },
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
  const earlier = new Map<string, { name: string; desc: string; idLabels: string[] }>();
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

  // -- earlier cards brought up to date; cards of deleted tasks get a comment, never a deletion ------
  // Name and description go in a JSON body, as on create: in the query string a long description, each
  // multi-byte character six or more characters once encoded, makes a request line servers refuse.
  // Labels are added and removed one at a time (`idLabels` on an update replaces the card's set): those a
  // person put on the card stay, and only Atomize's complexity labels that no longer apply go.
  state.refreshed ??= [];
  let updated = 0;
  const ours = new Set(Object.values(labels));
  for (const t of tasks) {
    const now = earlier.get(t.id);
    if (!now || state.refreshed.includes(t.id)) continue;
    const name = taskTitle(t.description, 250);
    const desc = cardDescription(t, paths.get(t.id) ?? []);
    const wanted = labels[complexityBand(t.complexity_score)];
    const card = cards[t.id]!;
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
      items: Object.entries(cards).map(([taskId, cardId]) => {
        const task = tasks.find((t) => t.id === taskId);
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
                  text: cardDescription(task, paths.get(task.id) ?? []),
                  story_points: null,
                },
              }
            : {}),
        };
      }),
    },
  };
}
