import type { BlogPostStatus } from "../../../shared/schemas/blog";

/** Blog post status badges: published success, draft default, archived danger. */
const BADGE: Record<BlogPostStatus, string> = {
  published: "badge-success",
  draft: "badge-neutral",
  archived: "badge-error",
};

export function PostStatusBadge({ status }: { status: BlogPostStatus }) {
  return (
    <span className={`badge badge-sm whitespace-nowrap ${BADGE[status] ?? "badge-ghost"}`}>{status}</span>
  );
}

/** Subscription status badges: 'active' is a success badge; any other status is neutral. */
export function SubscriptionStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`badge badge-sm whitespace-nowrap ${
        status === "active" ? "badge-success" : status === "pending" ? "badge-warning" : "badge-ghost"
      }`}
      title={
        status === "pending" ? "Waiting for the address to confirm through the e-mailed link" : undefined
      }
    >
      {status}
    </span>
  );
}
