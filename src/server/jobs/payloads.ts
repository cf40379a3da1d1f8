import { z } from "zod";

const id = z.string().min(1).max(100);

/**
 * Every kind of job and the payload it carries, checked when it is queued (by type) and when it is
 * claimed (by this schema): a row that does not match fails at once instead of running on bad data.
 */
export const jobPayloads = {
  "decompose.root": z.object({ rootId: id }),
  "decompose.node": z.object({ rootId: id, nodeId: id }),
  "decompose.compose": z.object({ rootId: id }),
  "export.run": z.object({ exportId: id }),
  /** `after`: the last subscriber mailed, so a retried job resumes after it. */
  "blog.notify": z.object({ postId: id, after: z.string().max(200).nullable().optional() }),
  "blog.confirm": z.object({ subscriptionId: id }),
} as const;

export type JobKind = keyof typeof jobPayloads;
export type JobPayload<K extends JobKind> = z.infer<(typeof jobPayloads)[K]>;
