import { createHmac } from "node:crypto";
import { TRELLO_CREDENTIALS_REQUIRED } from "../../../../shared/schemas/integrations";
import type { Deps } from "../../../deps";
import { AppError } from "../../../errors";
import { readCredential } from "../../../integrations/credentials";
import { createHttpClient } from "../../../integrations/http-client";
import { trelloAuthorization } from "../../../integrations/trello/auth";
import { trelloBudgets } from "../../../integrations/trello/budgets";
import { sameMac } from "../../../lib/mac";
import { outboundFetch } from "../../../lib/outbound/fetch";
import {
  type AddedItem,
  type Change,
  isRecord,
  type Reading,
  type RemoteSnapshot,
  type RemoteStatus,
  str,
  time,
} from "../tracker";
import type { Tracker } from "../tracker-deps";
import { trelloExporter } from "./exporter";

/**
 * Trello as a tracker: a board with To Do, In Progress and Done lists, a card per task; a card's list is
 * its status. Webhooks are registered on the board by the export itself, signed `X-Trello-Webhook` with
 * the application secret the user gives (Trello makes it, not Atomize; "Webhooks" in Trello's REST API
 * guides), and answered a HEAD check first (rest/webhooks.ts).
 */
export const trelloTracker: Tracker = {
  kind: "trello",
  async start(deps, userId, input) {
    const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
    const c = input.config;
    const key = str(c.trello_api_key) || stored?.secret.api_key;
    const token = str(c.trello_token) || stored?.secret.token;
    if (!key || !token) throw new AppError("UNPROCESSABLE_CONTENT", TRELLO_CREDENTIALS_REQUIRED);
    return {
      secret: { api_key: key, token },
      config: { board_name: c.board_name, ...(c.board_id ? { board_id: c.board_id } : {}) },
    };
  },
  previewTarget: async (_deps, _userId, input) => input.board_id || null,
  exporter: trelloExporter,
  read: (deps, userId, target) => trelloReading(deps, userId, target),
  webhook: {
    secret: { made: false, ask: "Give your Trello application secret (trello.com/power-ups/admin)." },
    verify: (secret, raw, url, headers) => trelloSignatureOk(secret, raw, url, headers["x-trello-webhook"]),
    // Trello sends no delivery header, but each action has its own id, inside the signed body.
    deliveryId: (_headers, p) => (isRecord(p) && isRecord(p.action) ? str(p.action.id) : null),
    change: (_headers, payload) => trelloChange(payload),
  },
};

/**
 * Trello's: base64 HMAC-SHA1 of the body and the callback URL as registered. Trello documented signing
 * the text as a "binary" string (each character's lowest 8 bits: U+2013 is the byte 19), then removed that
 * caveat because it had "accidentally fixed" it (its api-docs repository, commits 1a51337 and e47b0d5):
 * both forms are accepted, so a board, card or member name with "é" or "—" is not refused either way.
 * Both need the secret; ASCII text signs the same in each.
 */
export function trelloSignatureOk(
  secret: string,
  raw: Buffer,
  callbackUrl: string,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = Buffer.from(header.trim(), "base64");
  const binary = Buffer.from(raw.toString("utf8") + callbackUrl, "latin1");
  const utf8 = Buffer.concat([raw, Buffer.from(callbackUrl)]);
  return [binary, utf8].some((signed) => {
    return sameMac(given, createHmac("sha1", secret).update(signed).digest());
  });
}

/** A card's list by its name: the export's To Do, In Progress and Done; any other list says nothing. */
function trelloStatus(list: string): RemoteStatus {
  const name = list.trim().toLowerCase();
  return {
    text: list,
    means:
      name === "done"
        ? "completed"
        : name === "in progress"
          ? "in_progress"
          : name === "to do"
            ? "pending"
            : null,
  };
}

/** Each card's list on the board (the export's To Do, In Progress and Done lists), name and description. */
async function trelloReading(deps: Deps, userId: string, boardId: string): Promise<Reading> {
  const stored = await readCredential<{ api_key: string; token: string }>(deps, userId, "trello");
  if (!stored) throw new Error("connect Trello in Settings to sync its statuses");
  const http = createHttpClient({
    fetch: outboundFetch(deps.config, "user"),
    baseUrl: deps.config.TRELLO_API_URL,
    headers: { authorization: trelloAuthorization(stored.secret.api_key, stored.secret.token) },
    shared: trelloBudgets(deps, stored.secret.token),
    concurrency: 2,
    retries: 1,
    describe: (status) => `Trello answered ${status}`,
  });
  const board = encodeURIComponent(boardId);
  const [lists, cards] = await Promise.all([
    http.request<Array<{ id: string; name: string }>>("GET", `/1/boards/${board}/lists`, {
      query: { fields: "name" },
    }),
    http.request<
      Array<{
        id: string;
        idList: string;
        name?: string;
        desc?: string;
        shortUrl?: string;
        dateLastActivity?: string;
      }>
    >("GET", `/1/boards/${board}/cards`, {
      query: { fields: "idList,name,desc,shortUrl,dateLastActivity" },
    }),
  ]);
  const names = new Map(lists.body.map((l) => [l.id, l.name]));
  const items: Reading["items"] = new Map();
  // A card people added to the board: an item added there (the ones exports made are filtered out).
  const added: AddedItem[] = cards.body.map((c) => ({
    remoteId: c.id,
    key: c.shortUrl?.split("/").pop() ?? c.id,
    url: c.shortUrl ?? `https://trello.com/c/${c.id}`,
    title: c.name ?? "",
    text: c.desc ?? "",
    parent: null,
  }));
  for (const c of cards.body) {
    const list = names.get(c.idList);
    if (!list) continue;
    items.set(c.id, {
      state: trelloStatus(list),
      snap: {
        ...(typeof c.name === "string" ? { title: c.name } : {}),
        ...(typeof c.desc === "string" ? { text: c.desc } : {}),
      },
      at: time(c.dateLastActivity),
    });
  }
  return { items, added };
}

/**
 * Trello's `updateCard`: a new list moves the task; a new name or description (`data.old` names what
 * changed) goes to review; archiving a card is closing it there.
 */
function trelloChange(p: unknown): Change | null {
  if (!isRecord(p) || !isRecord(p.action) || p.action.type !== "updateCard" || !isRecord(p.action.data))
    return null;
  const data = p.action.data;
  const card = isRecord(data.card) ? data.card : null;
  const cardId = card ? str(card.id) : null;
  const list = isRecord(data.listAfter) ? str(data.listAfter.name) : null;
  const board = isRecord(data.board) ? str(data.board.id) : null;
  if (!card || !cardId) return null;
  const old = isRecord(data.old) ? data.old : {};
  const snap: RemoteSnapshot = {};
  if ("name" in old && str(card.name) !== null) snap.title = str(card.name)!;
  if ("desc" in old && str(card.desc) !== null) snap.text = str(card.desc)!;
  if ("closed" in old && card.closed === true) snap.closed = "archived";
  if (!list && Object.keys(snap).length === 0) return null;
  return {
    remoteId: cardId,
    ...(board ? { target: board } : {}),
    state: list ? trelloStatus(list) : null,
    snap,
    at: time(p.action.date),
  };
}
