import { useState } from "react";
import type { AdminBlogPost, BlogSubscription } from "../../../shared/schemas/blog";
import { ConfirmModal } from "../../components/confirm-modal";
import { EmptyState, LoadError } from "../../components/empty-state";
import { PagePagination, totalPages, useStepBackWhenEmpty } from "../../components/page-pagination";
import { Spinner } from "../../components/spinner";
import { TabList, tabPanelProps } from "../../components/tabs";
import { usePageMeta } from "../../components/use-page-meta";
import { PostEditorModal } from "./post-editor-modal";
import { PostsTable } from "./posts-table";
import { SubscriptionsTable } from "./subscriptions-table";
import {
  ADMIN_PAGE_SIZE,
  MESSAGES,
  useAdminPosts,
  useAdminSubscriptions,
  useDeletePost,
  useDeleteSubscription,
  useLoadPostForEdit,
} from "./use-blog-admin";

type TabId = "posts" | "subscriptions";
const TABS = [
  { id: "posts", label: "Blog Posts" },
  { id: "subscriptions", label: "Subscriptions" },
] as const;
const TAB_PREFIX = "blog-admin";

/** The editor: closed, a new post, or an existing post. */
type Editor = { kind: "closed" } | { kind: "create" } | { kind: "edit"; post: AdminBlogPost };

function LoadingPanel({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner size="lg" label={label} />
    </div>
  );
}

function PostsPanel({ selected }: { selected: TabId }) {
  const [page, setPage] = useState(1);
  const posts = useAdminPosts(page);
  const loadForEdit = useLoadPostForEdit();
  const deletePost = useDeletePost();
  const [editor, setEditor] = useState<Editor>({ kind: "closed" });
  const [loadingId, setLoadingId] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<AdminBlogPost | null>(null);

  const edit = async (post: AdminBlogPost) => {
    setLoadingId(post.id);
    const fresh = await loadForEdit(post.id);
    setLoadingId(null);
    if (fresh) setEditor({ kind: "edit", post: fresh });
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    deletePost.mutate({ id: toDelete.id }, { onSettled: () => setToDelete(null) });
  };

  const data = posts.data;
  // Deleting the last post of a page shows the page before it.
  useStepBackWhenEmpty(
    {
      page,
      shown: data && !posts.isPlaceholderData ? data.posts.length : null,
      total: data?.total ?? 0,
      pageSize: ADMIN_PAGE_SIZE,
    },
    setPage,
  );
  return (
    <div {...tabPanelProps(TAB_PREFIX, "posts", selected)} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">
          Blog Posts
          {data && <span className="ml-2 text-sm font-normal text-base-content/60">({data.total})</span>}
        </h2>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          onClick={() => setEditor({ kind: "create" })}
        >
          <span aria-hidden="true">+</span> New Post
        </button>
      </div>

      {posts.isPending ? (
        <LoadingPanel label="Loading posts..." />
      ) : !data ? (
        <LoadError title="Could not load posts" onRetry={() => void posts.refetch()} retryLabel="Try Again" />
      ) : data.posts.length === 0 ? (
        <EmptyState title="No blog posts yet">Create the first post with New Post.</EmptyState>
      ) : (
        <>
          <PostsTable
            posts={data.posts}
            onEdit={(post) => void edit(post)}
            onDelete={setToDelete}
            busyId={loadingId ?? (deletePost.isPending ? (deletePost.variables?.id ?? null) : null)}
          />
          <PagePagination
            page={page}
            pages={totalPages(data.total, ADMIN_PAGE_SIZE)}
            onPage={setPage}
            disabled={posts.isPlaceholderData}
            label="Post pages"
          />
        </>
      )}

      {editor.kind !== "closed" && (
        <PostEditorModal
          key={editor.kind === "edit" ? editor.post.id : "new"}
          post={editor.kind === "edit" ? editor.post : null}
          onClose={() => setEditor({ kind: "closed" })}
        />
      )}
      <ConfirmModal
        open={toDelete !== null}
        title="Delete Post"
        message={MESSAGES.deletePostConfirmation}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={deletePost.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}

function SubscriptionsPanel({ selected }: { selected: TabId }) {
  const [page, setPage] = useState(1);
  // Loaded once the tab is first opened, then kept.
  const [opened, setOpened] = useState(selected === "subscriptions");
  if (selected === "subscriptions" && !opened) setOpened(true);
  const subs = useAdminSubscriptions(page, opened);
  const deleteSubscription = useDeleteSubscription();
  const [toDelete, setToDelete] = useState<BlogSubscription | null>(null);

  const confirmDelete = () => {
    if (!toDelete) return;
    deleteSubscription.mutate({ id: toDelete.id }, { onSettled: () => setToDelete(null) });
  };

  const data = subs.data;
  useStepBackWhenEmpty(
    {
      page,
      shown: data && !subs.isPlaceholderData ? data.subscriptions.length : null,
      total: data?.total ?? 0,
      pageSize: ADMIN_PAGE_SIZE,
    },
    setPage,
  );
  return (
    <div {...tabPanelProps(TAB_PREFIX, "subscriptions", selected)} className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">
        Subscriptions
        {data && <span className="ml-2 text-sm font-normal text-base-content/60">({data.total})</span>}
      </h2>
      {subs.isPending ? (
        <LoadingPanel label="Loading subscriptions..." />
      ) : !data ? (
        <LoadError
          title="Could not load subscriptions"
          onRetry={() => void subs.refetch()}
          retryLabel="Try Again"
        />
      ) : data.subscriptions.length === 0 ? (
        <EmptyState title="No subscriptions yet">Readers who subscribe to the blog appear here.</EmptyState>
      ) : (
        <>
          <SubscriptionsTable
            subscriptions={data.subscriptions}
            onDelete={setToDelete}
            busyId={deleteSubscription.isPending ? (deleteSubscription.variables?.id ?? null) : null}
          />
          <PagePagination
            page={page}
            pages={totalPages(data.total, ADMIN_PAGE_SIZE)}
            onPage={setPage}
            disabled={subs.isPlaceholderData}
            label="Subscription pages"
          />
        </>
      )}
      <ConfirmModal
        open={toDelete !== null}
        title="Delete Subscription"
        message={MESSAGES.deleteSubscriptionConfirmation}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={deleteSubscription.isPending}
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}

/** Blog admin (/admin/blog, admins only): posts and subscriptions. */
export default function BlogAdminPage() {
  usePageMeta({ title: "Blog Admin", path: "/admin/blog", noIndex: true });
  const [tab, setTab] = useState<TabId>("posts");

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 sm:py-8">
      <header>
        <h1 className="text-2xl font-bold sm:text-3xl">Blog Admin</h1>
        <p className="mt-1 text-sm text-base-content/70">Write and publish posts, and manage subscribers.</p>
      </header>
      <TabList
        tabs={TABS}
        selected={tab}
        onSelect={setTab}
        idPrefix={TAB_PREFIX}
        label="Blog admin sections"
      />
      <PostsPanel selected={tab} />
      <SubscriptionsPanel selected={tab} />
    </div>
  );
}
