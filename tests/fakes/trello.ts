/**
 * A local, in-process fake of the Trello REST API (api.trello.com, paths under `/1`) on the
 * fake-server kit (kit.ts), for integration tests. Clients call `${fake.url}/1/...`.
 *
 * Sources, and what was taken from each:
 * - Trello's OpenAPI description, https://developer.atlassian.com/cloud/trello/swagger.v3.json (read in
 *   the byte-identical copy api-evangelist/trello, openapi/trello-rest-api-openapi.json, fetched
 *   2026-10-04): where each parameter goes. `POST /boards/` (post-boards: name 1-16384 required,
 *   defaultLabels, defaultLists, desc 0-16384, …), `POST /lists` (post-lists: name, idBoard, idListSource,
 *   pos), `POST /labels` (post-labels: name, color, idBoard, all required), `POST /checklists`
 *   (post-checklists: idCard required, name, pos, idChecklistSource) and `POST /checklists/{id}/checkItems`
 *   (post-checklists-id-checkitems: name 1-16384 required, pos, checked, due, dueReminder, idMember)
 *   document every parameter `in: query` and no request body. `POST /cards` (post-cards) documents query
 *   parameters (idList required, name, desc, pos, idLabels, …) and says "Query parameters may also be
 *   replaced with a JSON request body instead". `GET /members/{id}/boards` takes `filter` (`all`, the
 *   default, or closed, members, open, organization, public, starred) and `fields`. The security schemes
 *   are `key` and `token` in the query (APIKey, APIToken) or OAuth 2.0.
 * - Trello's authorization guide, https://developer.atlassian.com/cloud/trello/guides/rest-api/authorization/
 *   ("Passing token and key in API requests"): the key and token go in the query string, in an
 *   `Authorization: OAuth oauth_consumer_key="…", oauth_token="…"` header, or in the body of a PUT or POST.
 * - Trello's rate-limit guide, https://developer.atlassian.com/cloud/trello/guides/rest-api/rate-limits/:
 *   300 requests per 10 s per key, 100 per 10 s per token, the 429 bodies, the 200-refusal lock-out.
 *
 * It covers what Atomize's Trello export uses (token check via `GET /1/members/me`, the member's boards,
 * boards, lists, labels, cards, checklists, check items) and mimics Trello's observable behaviour where
 * our code could depend on it:
 * - Credentials: `key` + `token` as query parameters, in a form or JSON body, or in
 *   `Authorization: OAuth oauth_consumer_key="KEY", oauth_token="TOKEN"` (values percent-decoded). A
 *   missing or unknown key is 401 `invalid key`; a missing token, or one not issued for that key, is 401
 *   `invalid token`. `requests[].auth` says which way each request took. Trello's error bodies are plain
 *   text (`text/plain; charset=utf-8`), not JSON, except for rate-limit errors.
 * - Parameters are read where the OpenAPI description puts them: from the query string, and for
 *   `POST /1/cards` also from a JSON body (which wins over the query). A value sent only in a body
 *   anywhere else is not seen, as Trello would not: `POST /1/boards` with its name only in a JSON body is
 *   400 `invalid value for name`. Form bodies carry credentials only. `fields=a,b` trims GET responses to
 *   `id` + those fields.
 * - Ids are 24-hex object ids; boards and cards can also be addressed by their 8-character
 *   shortLink. A malformed id in a path is 400 `invalid id`; an unknown one is 404
 *   `The requested resource was not found.`; an unknown id in a parameter is 400
 *   `invalid value for idList` (idBoard, idCard, idLabels…). A board of another member is 401
 *   `unauthorized permission requested`.
 * - `POST /1/boards` creates Trello's default lists (To Do, Doing, Done) and six unnamed default
 *   labels (green, yellow, orange, red, purple, blue) unless `defaultLists=false` /
 *   `defaultLabels=false`. Names and descriptions are limited to 16384 characters.
 * - `pos` is `top`, `bottom` (the default) or a positive number; new items at the bottom get the
 *   largest sibling position + 16384, as Trello does.
 * - Label colours: green, yellow, orange, red, purple, blue, sky, lime, pink, black, their
 *   `_dark` / `_light` variants (Trello's 2023 palette), or null (`"null"` in a query).
 * - Rate limits as Trello documents them: 300 requests per 10 s per API key and 100 per 10 s per
 *   token (fixed windows starting at a bucket's first request). Every authenticated response
 *   carries `x-rate-limit-api-{key,token}-{interval-ms,max,remaining}`. Over the limit: 429 with
 *   JSON `{"error":"API_TOKEN_LIMIT_EXCEEDED","message":"Rate limit exceeded"}` (or
 *   `API_KEY_LIMIT_EXCEEDED`) and no `Retry-After`. Refused requests do not spend budget, but
 *   after more than 200 refusals in one window the key is refused for the rest of that window.
 *   Requests to /1/members/ have their own limit, 100 per 900 s per token ("Additionally, there is a
 *   limit on requests to /1/members/ of 100 requests per 900 seconds", same guide): 429 with
 *   `{"message":"Exceeded rate limit to /1/member","error":"RATE_LIMIT_EXCEEDED"}`, the body Trello sends
 *   for it (as quoted in a Laracasts thread, "API Trello: Exceeded rate limit to /1/member").
 *
 * - Card updates, `PUT /1/cards/{id}` (put-cards-id: name, desc 0-16384, idList, idLabels, ... documented
 *   as query parameters): read from the query string and from a JSON body, the body winning as on
 *   `POST /1/cards`. Trello reads parameters from a PUT's body too (its authorization guide takes the
 *   key and token "in the body of a PUT or POST"; clients such as trelloR's `update_resource` send card
 *   updates as a JSON body). `idLabels` there REPLACES the card's labels.
 * - Labels one at a time: `POST /1/cards/{id}/idLabels` with `value` (post-cards-id-idlabels, "Add a Label
 *   to a Card") answers the card's label ids; a label already on the card is 400 "that label is already on
 *   the card" (the text clients match, e.g. in their tests of it); `DELETE /1/cards/{id}/idLabels/{idLabel}`
 *   (delete-cards-id-idlabels-idlabel) answers `{"_value": null}`; a label not on the card is 404 here
 *   (Trello documents no answer for that; a client should take 400 or 404 as "already gone").
 * - Request lines: Trello documents no limit on a URL. The fake uses the minimum RFC 9112 §3 asks every
 *   server to support, 8000 octets of request-line, and answers a longer request target 414 "URI Too Long"
 *   (RFC 9110 §15.5.15), as a server that will not parse it must; past the kit's 16 KiB head (Node's
 *   documented default `--max-http-header-size`) Node itself answers 431. A 16,384-character description
 *   of multi-byte characters (6 or more characters each, percent-encoded) can only go in a body.
 * - Webhook deliveries (board webhooks made with POST /1/webhooks, signed as Trello signs them): a card
 *   moved (`moveCard`, or `idList` through the API) or renamed / re-described through the API delivers an
 *   `updateCard` action whose `data.card` has the new values and `data.old` the previous one (`{name}`,
 *   `{desc}` or `{idList}`, one action a field), with `listBefore`/`listAfter` for moves, per Trello's
 *   webhook guide (developer.atlassian.com/cloud/trello/guides/rest-api/webhooks/) and its action types.
 *   `model` is the whole board, as the guide's "the updated model" is. The signature is the guide's
 *   ("Webhook Signatures"), with the text taken as a "binary" string, as Trello's documentation said
 *   from 2015 ("the payloads that we sign are treated as binary strings, not utf-8": U+2013 is the byte
 *   19; trello-archive/api-docs commit 1a51337). That caveat was removed in 2016 because Trello had
 *   "accidentally fixed this" (commit e47b0d5), so deliveries may be signed over UTF-8 today: the stand-in
 *   signs the documented form, the stricter one for a verifier that only knows UTF-8.
 *   Deliveries from API writes go after the answer; `settleDeliveries()` waits for them.
 *
 * Deliberate simplifications: no workspaces/organizations, no closed (archived) boards, no
 * board-count limits, no multipart bodies, no
 * updates but cards' and `DELETE /1/boards/{id}`. Every authenticated request spends budget, validation
 * errors included; 401s never do.
 *
 * `setMode` modes apply before anything else (auth, rate limits) and stay until changed, or for
 * the next `times` matching requests only; with `path`, only requests whose path starts with it.
 */
import { createHmac, randomBytes } from "node:crypto";
import {
  type FakeRequest,
  type FakeServer,
  type FaultTarget,
  jsonReply,
  type LoggedRequest,
  mediaType,
  type Reply,
  Router,
  startFakeServer,
  textReply,
  withHeaders,
} from "./kit";

export type FakeTrelloMode = "ok" | "server_error" | "unavailable" | "slow" | "rate_limit";

export type FakeTrelloBoard = {
  id: string;
  name: string;
  url: string;
  lists: Array<{ id: string; name: string }>;
  labels: Array<{ id: string; name: string; color: string | null }>;
  cards: Array<{
    id: string;
    name: string;
    desc: string;
    idList: string;
    idLabels: string[];
    checklists: Array<{ name: string; items: string[] }>;
    comments: string[];
  }>;
};

export type FakeTrello = {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:PORT; clients call `${url}/1/...`. */
  url: string;
  /**
   * Registers a valid key/token pair for a member (created on first use; `memberId` defaults to
   * a fresh id, or the member already known by `username`).
   */
  addCredentials(c: {
    key: string;
    token: string;
    memberId?: string;
    username?: string;
    fullName?: string;
    /** The application's secret for this key: what Trello signs webhook deliveries with. */
    secret?: string;
  }): void;
  /** Defaults 300 / 100 / 10000 ms, as Trello documents. Resets all counters. */
  setRateLimits(l: {
    perKey?: number;
    perToken?: number;
    windowMs?: number;
    /** Requests to /1/members/ per token in `membersWindowMs` (Trello: 100 per 900 s); setting it starts new windows. */
    members?: number;
    membersWindowMs?: number;
  }): void;
  /**
   * "server_error": 500; "unavailable": 503; "rate_limit": 429 with Trello's JSON body
   * (`limit: "key"` for API_KEY_LIMIT_EXCEEDED) and no Retry-After; "slow": answers normally
   * after `delayMs` (default 10 s). With `times`, only the next `times` matching requests are
   * affected; with `path`, only requests whose path starts with it (e.g. "/1/cards").
   */
  setMode(
    mode: FakeTrelloMode,
    opts?: { times?: number; path?: string; delayMs?: number; limit?: "token" | "key" },
  ): void;
  /** Every open board, lists/cards in display order (cards by list, then position). */
  boards(): FakeTrelloBoard[];
  /**
   * Moves a card to the list of that name on its board, as a person dragging it would, and delivers the
   * `updateCard` action to the board's webhooks, with the whole board as `model`, signed as Trello
   * documents it (X-Trello-Webhook: base64 HMAC-SHA1 of the body followed by the callback URL, with the
   * application's secret, the text taken as a "binary" string: each character's lowest 8 bits).
   */
  moveCard(cardId: string, listName: string): Promise<Array<{ status: number }>>;
  /** Webhooks registered with POST /1/webhooks. */
  webhooks(): Array<{ id: string; idModel: string; callbackURL: string }>;
  /** Webhook deliveries sent after API writes (card updates), in order, with the answer each got. */
  readonly deliveries: Array<{ type: string; data: Record<string, unknown>; status: number }>;
  /** Waits until every delivery under way has been answered. */
  settleDeliveries(): Promise<void>;
  /** Every request received; `path` is the path without the query (which holds credentials). */
  readonly requests: Array<{
    method: string;
    path: string;
    status: number;
    at: number;
    auth: "query" | "header" | "body" | "none";
  }>;
  /** Highest number of requests handled at the same time so far. */
  readonly maxInFlight: number;
  /** The kit underneath: its full request log and failure modes (`setMode` replaces the armed ones). */
  server: FakeServer;
  /** Destroys open sockets and pending "slow" timers. */
  close(): Promise<void>;
};

const DEFAULT_PER_KEY = 300;
const DEFAULT_PER_TOKEN = 100;
const DEFAULT_WINDOW_MS = 10_000;
/** "If the amount of 429 errors per API key exceeds 200, Trello will return 429 for the remainder ... of the 10s window." */
const KEY_REFUSALS_BEFORE_LOCKOUT = 200;
const DEFAULT_SLOW_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_TEXT = 16_384;
/** RFC 9112 §3: every server SHOULD support request-lines of at least 8000 octets. */
const MAX_REQUEST_TARGET = 8000;
const POS_STEP = 16_384;
/** Sent with every answer, those of the failure modes included. */
const TRELLO_HEADERS = {
  "x-trello-version": "1.0",
  "Cache-Control": "max-age=0, must-revalidate, no-cache, no-store",
};

const BASE_COLORS = ["green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"];
const LABEL_COLORS = new Set(BASE_COLORS.flatMap((c) => [c, `${c}_dark`, `${c}_light`]));
const DEFAULT_LABEL_COLORS = ["green", "yellow", "orange", "red", "purple", "blue"];
const DEFAULT_LIST_NAMES = ["To Do", "Doing", "Done"];

/** GET /1/members/{id}/boards `filter`: "`all` or a comma-separated list of: closed, members, open, organization, public, starred". */
const BOARD_FILTERS = new Set(["all", "closed", "members", "open", "organization", "public", "starred"]);

const OBJECT_ID = /^[0-9a-f]{24}$/;
const SHORT_LINK = /^[0-9A-Za-z]{8}$/;
const ALPHANUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// ---------------------------------------------------------------------------------------------
// Helpers

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as JSON instead of the plain-text message. */
    readonly json?: unknown,
  ) {
    super(message);
  }
}

const invalidValue = (field: string) => new HttpError(400, `invalid value for ${field}`);
const notFound = () => new HttpError(404, "The requested resource was not found.");

let idCounter = randomBytes(3).readUIntBE(0, 3);
/** Mongo-style object id: 4-byte timestamp, 5 random bytes, 3-byte counter (as Trello's are). */
function objectId(): string {
  idCounter = (idCounter + 1) % 0x1000000;
  const ts = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, "0");
  return `${ts}${randomBytes(5).toString("hex")}${idCounter.toString(16).padStart(6, "0")}`;
}

function shortLink(): string {
  const bytes = randomBytes(8);
  let out = "";
  for (const b of bytes) out += ALPHANUM[b % ALPHANUM.length];
  return out;
}

/** Trello's URL slug: lower case, runs of anything but letters/digits become "-". */
const slugify = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 128);

/** Parameters from the query string and body; form/query repeats arrive as string arrays. */
type Params = Map<string, unknown>;

function fromSearchParams(params: Params, search: URLSearchParams) {
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    params.set(name, values.length === 1 ? values[0] : values);
  }
}

/** A scalar parameter as Trello reads it: undefined (absent), null (JSON null) or a string. */
function scalar(params: Params, name: string): string | null | undefined {
  const v = params.get(name);
  if (v === undefined || v === null) return v as undefined | null;
  if (Array.isArray(v)) return v.map((x) => String(x)).join(",");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function bool(params: Params, name: string, fallback: boolean): boolean {
  const v = params.get(name);
  if (v === undefined) return fallback;
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  throw invalidValue(name);
}

/** Optional text: absent -> fallback; longer than 16384 (or not a string) -> 400. */
function text(
  params: Params,
  name: string,
  opts: { required: boolean; fallback?: string; min?: number },
): string {
  const v = scalar(params, name);
  if (v === undefined || v === null) {
    if (opts.required) throw invalidValue(name);
    return opts.fallback ?? "";
  }
  if (v.length < (opts.min ?? 0) || v.length > MAX_TEXT) throw invalidValue(name);
  return v;
}

function resolvePos(params: Params, siblings: Array<{ pos: number }>): number {
  const raw = scalar(params, "pos");
  const positions = siblings.map((s) => s.pos);
  if (raw === undefined || raw === null || raw === "bottom")
    return positions.length === 0 ? POS_STEP : Math.max(...positions) + POS_STEP;
  if (raw === "top") return positions.length === 0 ? POS_STEP : Math.min(...positions) / 2;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0) throw invalidValue("pos");
  return n;
}

/** `fields=a,b`: Trello answers with `id` plus the requested fields (`all` or absent: everything). */
function pickFields(params: Params, body: Record<string, unknown>): Record<string, unknown> {
  const fields = scalar(params, "fields");
  if (fields === undefined || fields === null || fields === "all") return body;
  const wanted = new Set(
    fields
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean),
  );
  const out: Record<string, unknown> = { id: body.id };
  for (const [k, v] of Object.entries(body)) if (wanted.has(k)) out[k] = v;
  return out;
}

/** `OAuth oauth_consumer_key="KEY", oauth_token="TOKEN"` (values percent-encoded per RFC 5849). */
function parseOAuthHeader(header: string | undefined): { key?: string; token?: string } | null {
  if (!header) return null;
  const m = header.match(/^\s*OAuth\s+(.*)$/i);
  if (!m?.[1]) return null;
  const out: { key?: string; token?: string } = {};
  for (const part of m[1].matchAll(/([A-Za-z_]+)\s*=\s*"([^"]*)"/g)) {
    const [, name, raw = ""] = part;
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {}
    if (name === "oauth_consumer_key") out.key = value;
    if (name === "oauth_token") out.token = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// State

type Member = { id: string; username: string; fullName: string };
type List = { id: string; name: string; idBoard: string; pos: number; closed: boolean };
type Label = { id: string; name: string; color: string | null; idBoard: string };
type CheckItem = {
  id: string;
  name: string;
  state: "complete" | "incomplete";
  pos: number;
  idChecklist: string;
};
type Checklist = {
  id: string;
  name: string;
  idCard: string;
  idBoard: string;
  pos: number;
  items: CheckItem[];
};
type Card = {
  id: string;
  shortLink: string;
  idShort: number;
  name: string;
  desc: string;
  idList: string;
  idBoard: string;
  idLabels: string[];
  pos: number;
  checklists: Checklist[];
  comments: string[];
};
type Board = {
  id: string;
  shortLink: string;
  name: string;
  desc: string;
  idMember: string;
  lists: List[];
  labels: Label[];
  cards: Card[];
  nextIdShort: number;
};
type Bucket = { start: number; used: number; refused: number; locked: boolean };
/**
 * `params`: the query string, where Trello's OpenAPI documents every parameter Atomize uses; `json`: the
 * JSON body's fields, read only where it documents a body too (POST /1/cards).
 */
type Ctx = { params: Params; json: Params; member: Member };

export async function startFakeTrello(opts: { host?: string; port?: number } = {}): Promise<FakeTrello> {
  const members = new Map<string, Member>();
  /** token -> { key, member id } */
  const tokens = new Map<string, { key: string; memberId: string }>();
  const keys = new Set<string>();
  const appSecrets = new Map<string, string>();
  const hooks: Array<{ id: string; idModel: string; callbackURL: string; key: string }> = [];
  const boards = new Map<string, Board>();
  const lists = new Map<string, List>();
  const labels = new Map<string, Label>();
  const cards = new Map<string, Card>();
  const checklists = new Map<string, Checklist>();

  const limits = {
    perKey: DEFAULT_PER_KEY,
    perToken: DEFAULT_PER_TOKEN,
    windowMs: DEFAULT_WINDOW_MS,
    members: 100,
    membersWindowMs: 900_000,
  };
  const memberBuckets = new Map<string, Bucket>();
  const deliveries: FakeTrello["deliveries"] = [];
  const pending = new Set<Promise<unknown>>();

  /** Posts an `updateCard` action to the board's webhooks, signed as Trello signs them. */
  async function deliverUpdateCard(b: Board, card: Card, data: Record<string, unknown>) {
    const out: Array<{ status: number }> = [];
    const list = lists.get(card.idList);
    const actionData = {
      card: {
        id: card.id,
        name: card.name,
        idShort: card.idShort,
        shortLink: card.shortLink,
        desc: card.desc,
        idList: card.idList,
      },
      board: { id: b.id, name: b.name, shortLink: b.shortLink },
      ...(list && !data.listAfter ? { list: { id: list.id, name: list.name } } : {}),
      ...data,
    };
    for (const hook of hooks.filter((h) => h.idModel === b.id)) {
      // The model is the whole watched object, as Trello sends it (its description included).
      const body = JSON.stringify({
        model: boardJson(b),
        action: { id: objectId(), type: "updateCard", date: new Date().toISOString(), data: actionData },
      });
      const secret = appSecrets.get(hook.key) ?? "";
      // Signed in the documented form: the text as a "binary" string, each character's lowest 8 bits
      // (an en dash, U+2013, is the byte 19), not its UTF-8 bytes.
      const signature = createHmac("sha1", secret)
        .update(Buffer.from(body + hook.callbackURL, "latin1"))
        .digest("base64");
      const status = await fetch(hook.callbackURL, {
        method: "POST",
        headers: { "content-type": "application/json", "x-trello-webhook": signature },
        body,
      }).then(
        async (res) => {
          await res.arrayBuffer();
          return res.status;
        },
        () => 0, // nobody listening
      );
      deliveries.push({ type: "updateCard", data: actionData, status });
      out.push({ status });
    }
    return out;
  }

  /** A delivery sent after the answer, in order. */
  let chain: Promise<unknown> = Promise.resolve();
  function queueUpdateCard(b: Board, card: Card, data: Record<string, unknown>) {
    if (!hooks.some((h) => h.idModel === b.id)) return;
    // The card as it is now, not when the delivery goes.
    const snapshot = { ...card };
    const next = chain.then(() => deliverUpdateCard(b, snapshot, data));
    chain = next.catch(() => {});
    pending.add(next);
    void next.finally(() => pending.delete(next)).catch(() => {});
  }
  const keyBuckets = new Map<string, Bucket>();
  const tokenBuckets = new Map<string, Bucket>();
  let memberCounter = 0;

  // ----- JSON shapes ---------------------------------------------------------------------------

  const boardUrls = (b: Board) => ({
    url: `https://trello.com/b/${b.shortLink}/${slugify(b.name)}`,
    shortUrl: `https://trello.com/b/${b.shortLink}`,
  });
  const cardUrls = (c: Card) => ({
    url: `https://trello.com/c/${c.shortLink}/${c.idShort}-${slugify(c.name)}`,
    shortUrl: `https://trello.com/c/${c.shortLink}`,
  });

  const memberJson = (m: Member) => ({
    id: m.id,
    username: m.username,
    fullName: m.fullName,
    initials: m.fullName
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w[0]?.toUpperCase())
      .join("")
      .slice(0, 4),
    url: `https://trello.com/${m.username}`,
    idBoards: [...boards.values()].filter((b) => b.idMember === m.id).map((b) => b.id),
  });

  const boardJson = (b: Board) => ({
    id: b.id,
    name: b.name,
    desc: b.desc,
    descData: null,
    closed: false,
    idOrganization: null,
    idEnterprise: null,
    pinned: false,
    ...boardUrls(b),
    shortLink: b.shortLink,
    labelNames: Object.fromEntries(
      BASE_COLORS.map((c) => [c, b.labels.find((l) => l.color === c)?.name ?? ""]),
    ),
    prefs: { permissionLevel: "private", background: "blue" },
  });

  const listJson = (l: List) => ({
    id: l.id,
    name: l.name,
    closed: l.closed,
    color: null,
    idBoard: l.idBoard,
    pos: l.pos,
    subscribed: false,
    softLimit: null,
  });

  const labelJson = (l: Label) => ({ id: l.id, idBoard: l.idBoard, name: l.name, color: l.color, uses: 0 });

  const checkItemJson = (i: CheckItem) => ({
    id: i.id,
    name: i.name,
    nameData: null,
    pos: i.pos,
    state: i.state,
    due: null,
    dueReminder: null,
    idMember: null,
    idChecklist: i.idChecklist,
  });

  const checklistJson = (c: Checklist) => ({
    id: c.id,
    name: c.name,
    idBoard: c.idBoard,
    idCard: c.idCard,
    pos: c.pos,
    checkItems: c.items.map(checkItemJson),
  });

  const cardJson = (c: Card) => ({
    id: c.id,
    closed: false,
    desc: c.desc,
    descData: { emoji: {} },
    due: null,
    dueComplete: false,
    start: null,
    idBoard: c.idBoard,
    idChecklists: c.checklists.map((cl) => cl.id),
    idLabels: [...c.idLabels],
    idList: c.idList,
    idMembers: [],
    idShort: c.idShort,
    labels: c.idLabels.flatMap((id) => {
      const l = labels.get(id);
      return l ? [labelJson(l)] : [];
    }),
    name: c.name,
    pos: c.pos,
    shortLink: c.shortLink,
    ...cardUrls(c),
    badges: {
      checkItems: c.checklists.reduce((n, cl) => n + cl.items.length, 0),
      checkItemsChecked: c.checklists.reduce(
        (n, cl) => n + cl.items.filter((i) => i.state === "complete").length,
        0,
      ),
      description: c.desc !== "",
      comments: 0,
      attachments: 0,
    },
  });

  const byPos = <T extends { pos: number }>(items: T[]) => [...items].sort((a, b) => a.pos - b.pos);
  const openLists = (b: Board) => byPos(b.lists.filter((l) => !l.closed));
  const cardsInDisplayOrder = (b: Board) => {
    const order = new Map(byPos(b.lists).map((l, i) => [l.id, i]));
    return [...b.cards].sort(
      (x, y) => (order.get(x.idList) ?? 0) - (order.get(y.idList) ?? 0) || x.pos - y.pos,
    );
  };

  // ----- Lookups and access --------------------------------------------------------------------

  /** `me`, the member's id or username; another member is 404 here (the fake knows only its own). */
  const memberFromPath = (ctx: Ctx, ref: string): Member => {
    const m = ctx.member;
    if (ref !== "me" && ref !== m.id && ref.toLowerCase() !== m.username.toLowerCase()) throw notFound();
    return m;
  };

  const canAccess = (ctx: Ctx, b: Board) => {
    if (b.idMember !== ctx.member.id) throw new HttpError(401, "unauthorized permission requested");
    return b;
  };

  /** A board by id or shortLink in the URL path. */
  const boardFromPath = (ctx: Ctx, ref: string): Board => {
    let board: Board | undefined;
    if (OBJECT_ID.test(ref)) board = boards.get(ref);
    else if (SHORT_LINK.test(ref)) board = [...boards.values()].find((b) => b.shortLink === ref);
    else throw new HttpError(400, "invalid id");
    if (!board) throw notFound();
    return canAccess(ctx, board);
  };

  const cardFromPath = (ctx: Ctx, ref: string): Card => {
    let card: Card | undefined;
    if (OBJECT_ID.test(ref)) card = cards.get(ref);
    else if (SHORT_LINK.test(ref)) card = [...cards.values()].find((c) => c.shortLink === ref);
    else throw new HttpError(400, "invalid id");
    const board = card && boards.get(card.idBoard);
    if (!card || !board) throw notFound();
    canAccess(ctx, board);
    return card;
  };

  /** An object referenced by a parameter (`idBoard`, `idList`, `idCard`): 400 when unknown. */
  const fromParam = <T>(ctx: Ctx, name: string, map: Map<string, T>, boardOf: (t: T) => string): T => {
    const id = scalar(ctx.params, name);
    const found = id && OBJECT_ID.test(id) ? map.get(id) : undefined;
    const board = found && boards.get(boardOf(found));
    if (!found || !board) throw invalidValue(name);
    canAccess(ctx, board);
    return found;
  };

  // ----- Handlers ------------------------------------------------------------------------------

  function createBoard(ctx: Ctx) {
    const { params } = ctx;
    const name = text(params, "name", { required: true, min: 1 });
    const desc = text(params, "desc", { required: false });
    const withLists = bool(params, "defaultLists", true);
    const withLabels = bool(params, "defaultLabels", true);
    const board: Board = {
      id: objectId(),
      shortLink: shortLink(),
      name,
      desc,
      idMember: ctx.member.id,
      lists: [],
      labels: [],
      cards: [],
      nextIdShort: 1,
    };
    boards.set(board.id, board);
    if (withLists)
      DEFAULT_LIST_NAMES.forEach((listName, i) => {
        const list: List = {
          id: objectId(),
          name: listName,
          idBoard: board.id,
          pos: POS_STEP * (i + 1),
          closed: false,
        };
        board.lists.push(list);
        lists.set(list.id, list);
      });
    if (withLabels)
      for (const color of DEFAULT_LABEL_COLORS) {
        const label: Label = { id: objectId(), name: "", color, idBoard: board.id };
        board.labels.push(label);
        labels.set(label.id, label);
      }
    return jsonReply(200, boardJson(board));
  }

  /**
   * POST /1/webhooks (callbackURL, idModel, description as query parameters): Trello first sends a HEAD
   * to the callback URL and refuses the webhook unless it answers 200; a repeat of the same callback,
   * model and token is refused too (developer.atlassian.com/cloud/trello/guides/rest-api/webhooks).
   */
  async function createWebhook(ctx: Ctx) {
    const { params } = ctx;
    const callbackURL = text(params, "callbackURL", { required: true, min: 1 });
    const idModel = text(params, "idModel", { required: true, min: 1 });
    if (!boards.has(idModel)) throw invalidValue("idModel");
    const key = [...tokens.values()].find((t) => t.memberId === ctx.member.id)?.key ?? "";
    if (hooks.some((h) => h.callbackURL === callbackURL && h.idModel === idModel && h.key === key))
      throw new HttpError(400, "A webhook with that callback, model, and token already exists");
    const check = await fetch(callbackURL, { method: "HEAD" }).catch(() => null);
    if (check?.status !== 200)
      throw new HttpError(
        400,
        `URL (${callbackURL}) did not return 200 status code, got ${check?.status ?? "no answer"}`,
      );
    const hook = { id: objectId(), idModel, callbackURL, key };
    hooks.push(hook);
    return jsonReply(200, {
      id: hook.id,
      idModel,
      callbackURL,
      active: true,
      description: scalar(params, "description") ?? "",
    });
  }

  function createList(ctx: Ctx) {
    const { params } = ctx;
    const name = text(params, "name", { required: true, min: 1 });
    const board = fromParam(ctx, "idBoard", boards, (b) => b.id);
    const list: List = {
      id: objectId(),
      name,
      idBoard: board.id,
      pos: resolvePos(params, board.lists),
      closed: false,
    };
    board.lists.push(list);
    lists.set(list.id, list);
    return jsonReply(200, listJson(list));
  }

  function createLabel(ctx: Ctx) {
    const { params } = ctx;
    const name = text(params, "name", { required: true });
    const rawColor = scalar(params, "color");
    if (rawColor === undefined) throw invalidValue("color");
    const color = rawColor === null || rawColor === "null" ? null : rawColor;
    if (color !== null && !LABEL_COLORS.has(color)) throw invalidValue("color");
    const board = fromParam(ctx, "idBoard", boards, (b) => b.id);
    const label: Label = { id: objectId(), name, color, idBoard: board.id };
    board.labels.push(label);
    labels.set(label.id, label);
    return jsonReply(200, labelJson(label));
  }

  function createCard(queryCtx: Ctx) {
    // "Query parameters may also be replaced with a JSON request body instead" (post-cards): the body wins.
    const params: Params = new Map([...queryCtx.params, ...queryCtx.json]);
    const ctx: Ctx = { ...queryCtx, params };
    const list = fromParam(ctx, "idList", lists, (l) => l.idBoard);
    const board = boards.get(list.idBoard)!;
    const name = text(params, "name", { required: false });
    const desc = text(params, "desc", { required: false });
    const rawLabels = params.get("idLabels");
    const idLabels: string[] = [];
    if (rawLabels !== undefined && rawLabels !== null) {
      const items = Array.isArray(rawLabels) ? rawLabels.map(String) : String(rawLabels).split(",");
      for (const item of items.map((s) => s.trim()).filter(Boolean)) {
        const label = labels.get(item);
        if (!label || label.idBoard !== board.id) throw invalidValue("idLabels");
        if (!idLabels.includes(item)) idLabels.push(item);
      }
    }
    const card: Card = {
      id: objectId(),
      shortLink: shortLink(),
      idShort: board.nextIdShort++,
      name,
      desc,
      idList: list.id,
      idBoard: board.id,
      idLabels,
      pos: resolvePos(
        params,
        board.cards.filter((c) => c.idList === list.id),
      ),
      checklists: [],
      comments: [],
    };
    board.cards.push(card);
    cards.set(card.id, card);
    return jsonReply(200, cardJson(card));
  }

  /** PUT /1/cards/{id} (put-cards-id): name, desc, idList, idLabels, from the query or a JSON body. */
  function updateCard(queryCtx: Ctx, ref: string) {
    const card = cardFromPath(queryCtx, ref);
    const params: Params = new Map([...queryCtx.params, ...queryCtx.json]);
    const ctx: Ctx = { ...queryCtx, params };
    const before = { name: card.name, desc: card.desc, idList: card.idList };
    const name = params.has("name") ? text(params, "name", { required: false }) : card.name;
    const desc = params.has("desc") ? text(params, "desc", { required: false }) : card.desc;
    let idList = card.idList;
    if (params.has("idList")) {
      const list = fromParam(ctx, "idList", lists, (l) => l.idBoard);
      if (list.idBoard !== card.idBoard) throw invalidValue("idList");
      idList = list.id;
    }
    let idLabels = card.idLabels;
    if (params.has("idLabels")) {
      const raw = params.get("idLabels");
      const ids = (Array.isArray(raw) ? raw.map(String) : String(raw ?? "").split(","))
        .map((x) => x.trim())
        .filter(Boolean);
      for (const id of ids) if (labels.get(id)?.idBoard !== card.idBoard) throw invalidValue("idLabels");
      idLabels = [...new Set(ids)]; // replaces the card's labels
    }
    Object.assign(card, { name, desc, idList, idLabels });
    const board = boards.get(card.idBoard)!;
    if (name !== before.name) queueUpdateCard(board, card, { old: { name: before.name } });
    if (desc !== before.desc) queueUpdateCard(board, card, { old: { desc: before.desc } });
    if (idList !== before.idList) {
      const from = lists.get(before.idList);
      const to = lists.get(idList)!;
      queueUpdateCard(board, card, {
        old: { idList: before.idList },
        listBefore: from ? { id: from.id, name: from.name } : undefined,
        listAfter: { id: to.id, name: to.name },
      });
    }
    return jsonReply(200, cardJson(card));
  }

  /** POST /1/cards/{id}/idLabels (post-cards-id-idlabels): `value`, one label of the card's board. */
  function addLabelToCard(ctx: Ctx, ref: string) {
    const card = cardFromPath(ctx, ref);
    const id = scalar(ctx.params, "value");
    if (!id || !OBJECT_ID.test(id) || labels.get(id)?.idBoard !== card.idBoard) throw invalidValue("value");
    if (card.idLabels.includes(id)) throw new HttpError(400, "that label is already on the card");
    card.idLabels.push(id);
    return jsonReply(200, [...card.idLabels]);
  }

  /** DELETE /1/cards/{id}/idLabels/{idLabel} (delete-cards-id-idlabels-idlabel). */
  function removeLabelFromCard(ctx: Ctx, ref: string, idLabel: string) {
    const card = cardFromPath(ctx, ref);
    if (!OBJECT_ID.test(idLabel)) throw new HttpError(400, "invalid id");
    if (!card.idLabels.includes(idLabel)) throw notFound();
    card.idLabels = card.idLabels.filter((l) => l !== idLabel);
    return jsonReply(200, { _value: null });
  }

  /** POST /1/cards/{id}/actions/comments (text as a query parameter). */
  function commentOnCard(ctx: Ctx, ref: string) {
    const card = cardFromPath(ctx, ref);
    const comment = text(ctx.params, "text", { required: true, min: 1 });
    card.comments.push(comment);
    return jsonReply(200, {
      id: objectId(),
      type: "commentCard",
      data: { text: comment, card: { id: card.id } },
    });
  }

  function createChecklist(ctx: Ctx) {
    const { params } = ctx;
    const card = fromParam(ctx, "idCard", cards, (c) => c.idBoard);
    const name = text(params, "name", { required: false, fallback: "Checklist" });
    const checklist: Checklist = {
      id: objectId(),
      name,
      idCard: card.id,
      idBoard: card.idBoard,
      pos: resolvePos(params, card.checklists),
      items: [],
    };
    card.checklists.push(checklist);
    checklists.set(checklist.id, checklist);
    return jsonReply(200, checklistJson(checklist));
  }

  function createCheckItem(ctx: Ctx, ref: string) {
    const { params } = ctx;
    if (!OBJECT_ID.test(ref)) throw new HttpError(400, "invalid id");
    const checklist = checklists.get(ref);
    const board = checklist && boards.get(checklist.idBoard);
    if (!checklist || !board) throw notFound();
    canAccess(ctx, board);
    const name = text(params, "name", { required: true, min: 1 });
    const checked = bool(params, "checked", false);
    const item: CheckItem = {
      id: objectId(),
      name,
      state: checked ? "complete" : "incomplete",
      pos: resolvePos(params, checklist.items),
      idChecklist: checklist.id,
    };
    checklist.items.push(item);
    return jsonReply(200, checkItemJson(item));
  }

  /** DELETE /1/checklists/{id}/checkItems/{idCheckItem} (delete-checklists-id-checkitems-idcheckitem). */
  function deleteCheckItem(ctx: Ctx, ref: string, itemRef: string) {
    if (!OBJECT_ID.test(ref) || !OBJECT_ID.test(itemRef)) throw new HttpError(400, "invalid id");
    const checklist = checklists.get(ref);
    const board = checklist && boards.get(checklist.idBoard);
    if (!checklist || !board) throw notFound();
    canAccess(ctx, board);
    const at = checklist.items.findIndex((i) => i.id === itemRef);
    if (at < 0) throw notFound();
    checklist.items.splice(at, 1);
    return jsonReply(200, {});
  }

  const picked = (ctx: Ctx, body: Record<string, unknown> | Array<Record<string, unknown>>) =>
    jsonReply(
      200,
      Array.isArray(body) ? body.map((b) => pickFields(ctx.params, b)) : pickFields(ctx.params, body),
    );

  function deleteBoard(ctx: Ctx, ref: string) {
    const board = boardFromPath(ctx, ref);
    boards.delete(board.id);
    for (const l of board.lists) lists.delete(l.id);
    for (const l of board.labels) labels.delete(l.id);
    for (const c of board.cards) {
      cards.delete(c.id);
      for (const cl of c.checklists) checklists.delete(cl.id);
    }
    return jsonReply(200, { _value: null });
  }

  const routes = new Router<Ctx>()
    .get("/1/members/:id", (ctx, { id = "" }) => picked(ctx, memberJson(memberFromPath(ctx, id))))
    .get("/1/members/:id/boards", (ctx, { id = "" }) => {
      const m = memberFromPath(ctx, id);
      const filter = scalar(ctx.params, "filter") ?? "all";
      if (!BOARD_FILTERS.has(filter)) throw invalidValue("filter");
      // The fake has no closed, starred, public or Workspace boards: every board is open and private.
      const mine = [...boards.values()].filter((b) => b.idMember === m.id);
      return picked(
        ctx,
        filter === "all" || filter === "open" || filter === "members" ? mine.map(boardJson) : [],
      );
    })
    .post("/1/boards", createBoard)
    .get("/1/boards/:id", (ctx, { id = "" }) => picked(ctx, boardJson(boardFromPath(ctx, id))))
    .delete("/1/boards/:id", (ctx, { id = "" }) => deleteBoard(ctx, id))
    .get("/1/boards/:id/lists", (ctx, { id = "" }) =>
      picked(ctx, openLists(boardFromPath(ctx, id)).map(listJson)),
    )
    .get("/1/boards/:id/labels", (ctx, { id = "" }) =>
      picked(ctx, boardFromPath(ctx, id).labels.map(labelJson)),
    )
    .get("/1/boards/:id/cards", (ctx, { id = "" }) =>
      picked(ctx, cardsInDisplayOrder(boardFromPath(ctx, id)).map(cardJson)),
    )
    .get("/1/boards/:id/checklists", (ctx, { id = "" }) =>
      picked(
        ctx,
        cardsInDisplayOrder(boardFromPath(ctx, id)).flatMap((c) => byPos(c.checklists).map(checklistJson)),
      ),
    )
    .post("/1/lists", createList)
    .post("/1/webhooks", createWebhook)
    .post("/1/labels", createLabel)
    .post("/1/cards", createCard)
    .get("/1/cards/:id", (ctx, { id = "" }) => picked(ctx, cardJson(cardFromPath(ctx, id))))
    .put("/1/cards/:id", (ctx, { id = "" }) => updateCard(ctx, id))
    .post("/1/cards/:id/idLabels", (ctx, { id = "" }) => addLabelToCard(ctx, id))
    .delete("/1/cards/:id/idLabels/:label", (ctx, { id = "", label = "" }) =>
      removeLabelFromCard(ctx, id, label),
    )
    .post("/1/cards/:id/actions/comments", (ctx, { id = "" }) => commentOnCard(ctx, id))
    .get("/1/cards/:id/checklists", (ctx, { id = "" }) =>
      picked(ctx, byPos(cardFromPath(ctx, id).checklists).map(checklistJson)),
    )
    .post("/1/checklists", createChecklist)
    .post("/1/checklists/:id/checkItems", (ctx, { id = "" }) => createCheckItem(ctx, id))
    .delete("/1/checklists/:id/checkItems/:item", (ctx, { id = "", item = "" }) =>
      deleteCheckItem(ctx, id, item),
    );

  // ----- Rate limiting -------------------------------------------------------------------------

  const bucketFor = (map: Map<string, Bucket>, id: string, now: number): Bucket => {
    let bucket = map.get(id);
    if (!bucket || now - bucket.start >= limits.windowMs) {
      bucket = { start: now, used: 0, refused: 0, locked: false };
      map.set(id, bucket);
    }
    return bucket;
  };

  /** Spend one request from the key's and the token's budgets, or throw Trello's 429. */
  const spend = (headers: Record<string, string>, key: string, token: string, path: string) => {
    const now = Date.now();
    // The /1/members/ route's own limit, per token (refused requests do not spend it).
    if (/^\/1\/members(\/|$)/.test(path)) {
      let mb = memberBuckets.get(token);
      if (!mb || now - mb.start >= limits.membersWindowMs) {
        mb = { start: now, used: 0, refused: 0, locked: false };
        memberBuckets.set(token, mb);
      }
      if (mb.used >= limits.members)
        throw new HttpError(429, "Exceeded rate limit to /1/member", {
          message: "Exceeded rate limit to /1/member",
          error: "RATE_LIMIT_EXCEEDED",
        });
      mb.used++;
    }
    const kb = bucketFor(keyBuckets, key, now);
    const tb = bucketFor(tokenBuckets, token, now);
    let error: string | null = null;
    if (kb.locked || kb.used >= limits.perKey) error = "API_KEY_LIMIT_EXCEEDED";
    else if (tb.used >= limits.perToken) error = "API_TOKEN_LIMIT_EXCEEDED";
    if (error === null) {
      kb.used++;
      tb.used++;
    }
    headers["x-rate-limit-api-token-interval-ms"] = String(limits.windowMs);
    headers["x-rate-limit-api-token-max"] = String(limits.perToken);
    headers["x-rate-limit-api-token-remaining"] = String(Math.max(0, limits.perToken - tb.used));
    headers["x-rate-limit-api-key-interval-ms"] = String(limits.windowMs);
    headers["x-rate-limit-api-key-max"] = String(limits.perKey);
    headers["x-rate-limit-api-key-remaining"] = String(kb.locked ? 0 : Math.max(0, limits.perKey - kb.used));
    if (error !== null) {
      kb.refused++;
      if (kb.refused > KEY_REFUSALS_BEFORE_LOCKOUT) {
        kb.locked = true;
        headers["x-rate-limit-api-key-remaining"] = "0";
      }
      throw new HttpError(429, "Rate limit exceeded", { error, message: "Rate limit exceeded" });
    }
  };

  // ----- Dispatch ------------------------------------------------------------------------------

  /** How each request presented its credentials, for `requests`. */
  const authOf = new WeakMap<LoggedRequest, "query" | "header" | "body">();

  const errorReply = (err: unknown): Reply => {
    if (err instanceof HttpError)
      return err.json !== undefined ? jsonReply(err.status, err.json) : textReply(err.status, err.message);
    return textReply(500, `Internal Server Error: ${String(err)}`);
  };

  /**
   * The body's fields (JSON object or form), for credentials everywhere and, from JSON, for the parameters
   * of the one operation that documents a body. Malformed JSON is Trello's 400 wherever it is sent.
   */
  function readBody(req: FakeRequest): { json: Params; form: Params } {
    const json: Params = new Map();
    const form: Params = new Map();
    const type = mediaType(req.headers["content-type"]);
    if (req.raw().length > 0 && type === "application/json") {
      const parsed = req.json();
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        for (const [k, v] of Object.entries(parsed)) json.set(k, v);
    } else if (req.raw().length > 0 && type === "application/x-www-form-urlencoded") {
      fromSearchParams(form, req.form());
    }
    return { json, form };
  }

  async function handle(req: FakeRequest, route: (ctx: Ctx) => Promise<Reply | undefined>) {
    // Rate-limit headers, once the request is known to come from a key and token.
    const headers: Record<string, string> = {};
    // The request target (path and query, as sent) past what the fake parses: 414 before anything else.
    if (Buffer.byteLength(`${req.url.pathname}${req.url.search}`) > MAX_REQUEST_TARGET)
      return textReply(414, "URI Too Long");
    try {
      const params: Params = new Map();
      fromSearchParams(params, req.url.searchParams);
      const { json, form } = readBody(req);
      // Credentials, in the three places Trello's authorization guide names: the query string, the
      // OAuth header, the body of a PUT or POST.
      const oauth = parseOAuthHeader(req.headers.authorization);
      const fromBody = (name: string) => scalar(json, name) || scalar(form, name);
      const queryKey = scalar(params, "key");
      const queryToken = scalar(params, "token");
      const bodyKey = fromBody("key");
      const bodyToken = fromBody("token");
      const key = queryKey || bodyKey || oauth?.key;
      const token = queryToken || bodyToken || oauth?.token;
      if (queryKey || queryToken) authOf.set(req.log, "query");
      else if (bodyKey || bodyToken) authOf.set(req.log, "body");
      else if (oauth) authOf.set(req.log, "header");
      if (!key || !keys.has(key)) throw new HttpError(401, "invalid key");
      const issued = token ? tokens.get(token) : undefined;
      if (!token || !issued || issued.key !== key) throw new HttpError(401, "invalid token");
      const member = members.get(issued.memberId)!;

      spend(headers, key, token, req.path);
      const reply = await route({ params, json, member });
      return reply && withHeaders(reply, headers);
    } catch (err) {
      return withHeaders(errorReply(err), headers);
    }
  }

  const server: FakeServer = await startFakeServer({
    host: opts.host,
    port: opts.port,
    routes,
    trailingSlash: "ignore", // Trello tolerates a trailing slash
    bodyLimit: MAX_BODY_BYTES,
    handle,
    notFound: () => errorReply(notFound()),
    tooLarge: () => new HttpError(413, "request entity too large"),
    malformedJson: () => new HttpError(400, "invalid json"),
    replyHeaders: () => TRELLO_HEADERS,
  });

  return {
    url: server.url,
    addCredentials(c) {
      let member = c.memberId ? members.get(c.memberId) : undefined;
      if (!member && c.username)
        member = [...members.values()].find((m) => m.username.toLowerCase() === c.username?.toLowerCase());
      if (!member) {
        memberCounter++;
        const username = c.username ?? `member${memberCounter}`;
        member = { id: c.memberId ?? objectId(), username, fullName: c.fullName ?? username };
        members.set(member.id, member);
      } else {
        if (c.username) member.username = c.username;
        if (c.fullName) member.fullName = c.fullName;
      }
      keys.add(c.key);
      if (c.secret) appSecrets.set(c.key, c.secret);
      tokens.set(c.token, { key: c.key, memberId: member.id });
    },
    setRateLimits(l) {
      if (l.perKey !== undefined) limits.perKey = l.perKey;
      if (l.perToken !== undefined) limits.perToken = l.perToken;
      if (l.windowMs !== undefined) limits.windowMs = l.windowMs;
      if (l.members !== undefined) limits.members = l.members;
      if (l.membersWindowMs !== undefined) limits.membersWindowMs = l.membersWindowMs;
      // A new /1/members limit starts new windows.
      if (l.members !== undefined || l.membersWindowMs !== undefined) memberBuckets.clear();
      keyBuckets.clear();
      tokenBuckets.clear();
    },
    setMode(next, modeOpts = {}) {
      server.faults.clear();
      const target: FaultTarget = {
        times: modeOpts.times,
        path: modeOpts.path === undefined ? undefined : `${modeOpts.path}*`,
      };
      if (next === "server_error") server.faults.fail(target, textReply(500, "Internal Server Error"));
      if (next === "unavailable") server.faults.fail(target, textReply(503, "Service Unavailable"));
      if (next === "rate_limit")
        server.faults.fail(
          target,
          jsonReply(429, {
            error: modeOpts.limit === "key" ? "API_KEY_LIMIT_EXCEEDED" : "API_TOKEN_LIMIT_EXCEEDED",
            message: "Rate limit exceeded",
          }),
        );
      if (next === "slow") server.faults.delay(target, modeOpts.delayMs ?? DEFAULT_SLOW_MS);
    },
    async moveCard(cardId, listName) {
      for (const b of boards.values()) {
        const card = b.cards.find((c) => c.id === cardId);
        if (!card) continue;
        const list = openLists(b).find((l) => l.name === listName);
        if (!list) throw new Error(`fake Trello: no list ${listName} on board ${b.id}`);
        const before = lists.get(card.idList);
        card.idList = list.id;
        return deliverUpdateCard(b, card, {
          old: before ? { idList: before.id } : undefined,
          listBefore: before ? { id: before.id, name: before.name } : undefined,
          listAfter: { id: list.id, name: list.name },
        });
      }
      throw new Error(`fake Trello: no card ${cardId}`);
    },
    get deliveries() {
      return deliveries;
    },
    async settleDeliveries() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    webhooks() {
      return hooks.map(({ id, idModel, callbackURL }) => ({ id, idModel, callbackURL }));
    },
    boards() {
      return [...boards.values()].map((b) => ({
        id: b.id,
        name: b.name,
        url: boardUrls(b).url,
        lists: openLists(b).map((l) => ({ id: l.id, name: l.name })),
        labels: b.labels.map((l) => ({ id: l.id, name: l.name, color: l.color })),
        cards: cardsInDisplayOrder(b).map((c) => ({
          id: c.id,
          name: c.name,
          desc: c.desc,
          idList: c.idList,
          idLabels: [...c.idLabels],
          checklists: byPos(c.checklists).map((cl) => ({
            name: cl.name,
            items: byPos(cl.items).map((i) => i.name),
          })),
          comments: [...c.comments],
        })),
      }));
    },
    get requests() {
      return server.log.map((e) => ({
        method: e.method,
        path: e.path,
        status: e.status,
        at: e.at,
        auth: authOf.get(e) ?? ("none" as const),
      }));
    },
    get maxInFlight() {
      return server.maxInFlight;
    },
    server,
    close: server.close,
  };
}
