import { eq } from "drizzle-orm";
import type { TaskUsage } from "../../../shared/schemas/tasks";
import type { Tx } from "../../db/client";
import { users } from "../../db/schema/index";
import type { Deps } from "../../deps";
import { AppError } from "../../errors";
import { currentUsagePeriod } from "../auth/accounts";
import type { UserRow } from "../auth/sessions";

/** The monthly task allowance: what a user has used, and counting one more use. */

function firstOfNextMonth(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * Whether planning a project now uses the monthly allowance (issue 40): planning with a model does (it
 * costs the instance's or the user's model calls); the offline planner and a coding agent planning with
 * its own model do not, unless the operator set MONTHLY_LIMIT_ALL_PLANNING. Read before the transaction
 * that counts it (the planner choice reads the user's settings).
 */
export async function monthlyUseApplies(
  deps: Pick<Deps, "config" | "planners">,
  userId: string,
  byAgent = false,
): Promise<boolean> {
  if (deps.config.MONTHLY_LIMIT_ALL_PLANNING) return true;
  if (byAgent) return false;
  return (await deps.planners.forUser(userId)).name !== "offline";
}

export async function usageOf(deps: Pick<Deps, "config" | "planners">, user: UserRow): Promise<TaskUsage> {
  const period = currentUsagePeriod();
  return {
    used: user.usagePeriod === period ? user.tasksCreatedThisMonth : 0,
    limit: user.role === "admin" ? null : user.monthlyTaskLimit,
    period,
    resets_at: firstOfNextMonth().toISOString(),
    counts_now: await monthlyUseApplies(deps, user.id),
  };
}

function monthName(d: Date) {
  return d.toLocaleString("en", { month: "long", day: "numeric", timeZone: "UTC" });
}

/** What a person at the limit can do about it (issue 40: the refusal named no way out). */
export function wayOut(allPlanning: boolean): string {
  const admins =
    "Admins have no limit: the operator names them in ADMIN_EMAILS or runs npm run make-admin -- <email>.";
  return allPlanning
    ? admins
    : `The offline planner and your coding agent's own planning do not count. ${admins}`;
}

/**
 * Counts one use of the monthly task limit, or refuses it (429) when the limit is reached; admins have
 * none. Every request that starts a decomposition uses one: creating a task, restarting a task's
 * decomposition, resubmitting a rejected plan and adding a task with auto_decompose (each costs model
 * calls; docs/decisions/009-usage-and-subscriptions.md). Call it first in the transaction that queues
 * the work: it locks the user's row, so concurrent requests cannot overrun the limit, and a refusal
 * rolls everything back.
 */
export async function countMonthlyUse(
  tx: Tx,
  userId: string,
  opts: { hint?: string; applies?: boolean; allPlanning?: boolean } = {},
): Promise<void> {
  if (opts.applies === false) return;
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user) throw new AppError("UNAUTHORIZED", "Not authenticated");
  const period = currentUsagePeriod();
  const used = user.usagePeriod === period ? user.tasksCreatedThisMonth : 0;
  if (user.role !== "admin" && used >= user.monthlyTaskLimit) {
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `You have reached your monthly limit of ${user.monthlyTaskLimit} ${opts.allPlanning ? "projects" : "projects planned with a model"}. It resets on ${monthName(firstOfNextMonth())}.${opts.hint ?? ""} ${wayOut(opts.allPlanning ?? false)}`,
    );
  }
  await tx
    .update(users)
    .set({ tasksCreatedThisMonth: used + 1, usagePeriod: period })
    .where(eq(users.id, userId));
}
