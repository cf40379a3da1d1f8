import type { DbOrTx } from "../../db/client";
import { AppError } from "../../errors";
import { type Budget, budgetKey, takeBudget, waitForBudgets } from "../../lib/rate-budget";

type TrelloLimits = {
  TRELLO_REQUESTS_PER_10S: number;
  TRELLO_RATE_WINDOW_MS: number;
  TRELLO_MEMBERS_REQUESTS: number;
  TRELLO_MEMBERS_WINDOW_MS: number;
};

/**
 * Trello's limits on one token, for every job and process of the instance together (issue 43): 100
 * requests per 10 s per token, and 100 per 900 s on /1/members/ ("Rate Limits",
 * developer.atlassian.com/cloud/trello/guides/rest-api/rate-limits). The key's own 300 per 10 s is the
 * sum of its tokens', which these keep under it for one person's key. Each Trello client waits here before
 * each request (http-client's `shared`); where a person waits on the answer (`refuse`), a request with no
 * place is refused at once with when to try again, instead of holding them for up to 15 minutes.
 */
export function trelloBudgets(
  deps: { db: DbOrTx; config: TrelloLimits },
  token: string,
  signal?: AbortSignal,
  mode: "wait" | "refuse" = "wait",
): (path: string) => Promise<void> {
  const perToken: Budget = {
    key: budgetKey("trello:token", token),
    limit: deps.config.TRELLO_REQUESTS_PER_10S,
    windowMs: deps.config.TRELLO_RATE_WINDOW_MS,
  };
  const members: Budget = {
    key: budgetKey("trello:members", token),
    limit: deps.config.TRELLO_MEMBERS_REQUESTS,
    windowMs: deps.config.TRELLO_MEMBERS_WINDOW_MS,
  };
  return async (path) => {
    const budgets = /^\/1\/members(\/|$)/.test(path) ? [members, perToken] : [perToken];
    if (mode === "wait") return waitForBudgets(deps.db, budgets, signal);
    for (const budget of budgets) {
      const waitMs = await takeBudget(deps.db, budget);
      if (waitMs > 0)
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `Trello allows ${budget.limit} of these requests per ${Math.round(budget.windowMs / 60_000) || 1} minute${budget.windowMs > 90_000 ? "s" : ""} for one token: try again in ${Math.ceil(waitMs / 60_000)} minute${waitMs > 60_000 ? "s" : ""}.`,
        );
    }
  };
}
