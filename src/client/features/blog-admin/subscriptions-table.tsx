import type { BlogSubscription } from "../../../shared/schemas/blog";
import { formatDate, formatDateTime } from "../../lib/time-format";
import { SubscriptionStatusBadge } from "./post-status-badge";

/** The blog admin's subscriptions table: Email, Status, Frequency, Created, Last Notified, delete. */
export function SubscriptionsTable({
  subscriptions,
  onDelete,
  busyId,
}: {
  subscriptions: BlogSubscription[];
  onDelete: (subscription: BlogSubscription) => void;
  busyId?: string | null;
}) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table table-zebra">
        <caption className="sr-only">Blog subscriptions</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Status</th>
            <th scope="col" className="hidden md:table-cell">
              Frequency
            </th>
            <th scope="col" className="hidden md:table-cell">
              Created
            </th>
            <th scope="col" className="hidden sm:table-cell">
              Last Notified
            </th>
            <th scope="col" className="text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((sub) => (
            <tr key={sub.id}>
              <th scope="row" className="min-w-40 font-normal [overflow-wrap:anywhere]">
                {sub.email}
              </th>
              <td>
                <SubscriptionStatusBadge status={sub.status} />
              </td>
              <td className="hidden capitalize md:table-cell">{sub.frequency}</td>
              <td className="hidden whitespace-nowrap md:table-cell">
                <time dateTime={sub.created_at}>{formatDate(sub.created_at)}</time>
              </td>
              <td className="hidden whitespace-nowrap sm:table-cell">
                {sub.last_notified_at ? (
                  <time dateTime={sub.last_notified_at}>{formatDateTime(sub.last_notified_at)}</time>
                ) : (
                  "Never"
                )}
              </td>
              <td className="text-right">
                <button
                  type="button"
                  className="btn btn-ghost btn-xs text-error"
                  aria-label={`Delete subscription ${sub.email}`}
                  onClick={() => onDelete(sub)}
                  disabled={busyId === sub.id}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
