import { type FormEvent, useEffect, useId, useState } from "react";
import { useLocation, useSearchParams } from "wouter";
import { BLOG_PAGE_SIZE, BLOG_SEARCH_MAX } from "../../../shared/blog-rules";
import type { BlogPost } from "../../../shared/schemas/blog";
import { EmptyState } from "../../components/empty-state";
import { PagePagination, totalPages } from "../../components/page-pagination";
import { usePageMeta } from "../../components/use-page-meta";
import { blogListParams } from "./blog-api";
import { PostCard, PostCardSkeleton } from "./post-card";
import { postPath } from "./post-text";
import { SubscribeButton } from "./subscribe-button";
import { useBlogPosts } from "./use-blog-posts";
import { useBlogSubscription } from "./use-blog-subscription";

const DESCRIPTION = "Insights, product updates and tutorials on AI-assisted task decomposition and planning.";

/** The blog list (/blog): search (?q=), subscribe, a grid of post cards and pagination (?page=). */
export default function BlogListPage() {
  usePageMeta({ title: "Blog", path: "/blog", description: DESCRIPTION });
  const [, navigate] = useLocation();
  const [params, setParams] = useSearchParams();
  const { page, search: query } = blogListParams(params);
  const posts = useBlogPosts(page, query);
  const subscription = useBlogSubscription();
  const [draft, setDraft] = useState(query);
  const searchId = useId();

  // Back and forward change the URL's query; the box follows it.
  useEffect(() => setDraft(query), [query]);

  const update = (changes: { q?: string; page?: number }) => {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (changes.q !== undefined) {
        if (changes.q) p.set("q", changes.q);
        else p.delete("q");
      }
      const nextPage = changes.page ?? page;
      if (nextPage <= 1) p.delete("page");
      else p.set("page", String(nextPage));
      return p;
    });
  };

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update({ q: draft.trim(), page: 1 });
  };

  const goToPage = (next: number) => {
    update({ page: next });
    window.scrollTo({ top: 0, behavior: "smooth" });
  };

  const open = (post: BlogPost) => navigate(postPath(post.slug));
  const data = posts.data;
  const pages = data ? totalPages(data.total, BLOG_PAGE_SIZE) : 1;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8 sm:py-10">
      <header className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold sm:text-4xl">Blog</h1>
          <p className="mt-2 max-w-2xl text-base-content/75">
            Insights, updates and tutorials on breaking big projects into atomic, estimable work.
          </p>
        </div>
        <SubscribeButton subscription={subscription} />
      </header>

      <search aria-label="Blog posts" className="flex w-full flex-col gap-2 md:max-w-xl">
        <form className="flex w-full gap-2" onSubmit={search}>
          <label htmlFor={searchId} className="sr-only">
            Search posts
          </label>
          <input
            id={searchId}
            type="search"
            name="q"
            className="input min-w-0 flex-1"
            placeholder="Search posts..."
            value={draft}
            maxLength={BLOG_SEARCH_MAX}
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </form>
        <p aria-live="polite" className="text-sm text-base-content/70">
          {query && data && !posts.isPlaceholderData
            ? `${data.total.toLocaleString("en")} ${data.total === 1 ? "result" : "results"} for "${query}"`
            : ""}
        </p>
      </search>

      {posts.isPending ? (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-[repeat(auto-fill,minmax(350px,1fr))]">
          <span className="sr-only" role="status">
            Loading posts
          </span>
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <PostCardSkeleton key={i} />
          ))}
        </div>
      ) : !data ? (
        <EmptyState
          title="No blog posts found"
          headingLevel={2}
          actions={
            <button type="button" className="btn btn-sm" onClick={() => void posts.refetch()}>
              Try Again
            </button>
          }
        >
          The posts could not be loaded.
        </EmptyState>
      ) : data.posts.length === 0 ? (
        <EmptyState
          title="No blog posts found"
          headingLevel={2}
          actions={
            query || page > 1 ? (
              <button type="button" className="btn btn-sm" onClick={() => update({ q: "", page: 1 })}>
                {query ? "Clear search" : "Back to the first page"}
              </button>
            ) : undefined
          }
        >
          Check back later for new content
        </EmptyState>
      ) : (
        <section aria-label="Posts" aria-busy={posts.isPlaceholderData || undefined}>
          <div
            className={`grid grid-cols-1 gap-6 sm:grid-cols-[repeat(auto-fill,minmax(350px,1fr))] ${posts.isPlaceholderData ? "opacity-60" : ""}`}
          >
            {data.posts.map((post) => (
              <PostCard key={post.id} post={post} onOpen={open} />
            ))}
          </div>
        </section>
      )}

      {data && data.posts.length > 0 && (
        <PagePagination
          page={page}
          pages={pages}
          onPage={goToPage}
          disabled={posts.isPlaceholderData}
          label="Blog pages"
        />
      )}
    </div>
  );
}
