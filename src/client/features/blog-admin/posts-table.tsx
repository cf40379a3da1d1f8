import type { AdminBlogPost } from "../../../shared/schemas/blog";
import { formatDate } from "../../lib/time-format";
import { PostStatusBadge } from "./post-status-badge";

const postPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;

/** The blog admin's posts table: Title, Author, Status, Created, Views, Actions (view, edit, delete). */
export function PostsTable({
  posts,
  onEdit,
  onDelete,
  busyId,
}: {
  posts: AdminBlogPost[];
  onEdit: (post: AdminBlogPost) => void;
  onDelete: (post: AdminBlogPost) => void;
  /** A post whose edit is loading or whose delete is running. */
  busyId?: string | null;
}) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300">
      <table className="table table-zebra">
        <caption className="sr-only">Blog posts</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col" className="hidden md:table-cell">
              Author
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="hidden md:table-cell">
              Created
            </th>
            <th scope="col" className="hidden text-right sm:table-cell">
              Views
            </th>
            <th scope="col" className="text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {posts.map((post) => (
            <tr key={post.id} aria-busy={busyId === post.id || undefined}>
              <th scope="row" className="min-w-40 max-w-md font-normal">
                <span className="block break-words font-medium">{post.title}</span>
                <span className="block break-all text-xs text-base-content/60">/{post.slug}</span>
              </th>
              <td className="hidden whitespace-nowrap md:table-cell">{post.author_name}</td>
              <td>
                <PostStatusBadge status={post.status} />
              </td>
              <td className="hidden whitespace-nowrap md:table-cell">
                <time dateTime={post.created_at}>{formatDate(post.created_at)}</time>
              </td>
              <td className="hidden text-right tabular-nums sm:table-cell">
                {post.view_count.toLocaleString("en")}
              </td>
              <td>
                <div className="flex justify-end gap-1">
                  <a
                    href={postPath(post.slug)}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="btn btn-ghost btn-xs"
                    aria-label={`View ${post.title} (opens in a new tab)`}
                  >
                    View
                  </a>
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs"
                    aria-label={`Edit ${post.title}`}
                    onClick={() => onEdit(post)}
                    disabled={busyId === post.id}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs text-error"
                    aria-label={`Delete ${post.title}`}
                    onClick={() => onDelete(post)}
                    disabled={busyId === post.id}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
