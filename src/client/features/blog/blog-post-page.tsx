import { useState } from "react";
import { useLocation, useParams } from "wouter";
import type { BlogPost } from "../../../shared/schemas/blog";
import { PageSpinner } from "../../components/spinner";
import { usePageMeta } from "../../components/use-page-meta";
import { usePublicConfig } from "../../lib/public-config";
import { PRODUCT_NAME } from "../../lib/site";
import { formatDate } from "../../lib/time-format";
import { PostContent } from "./post-content";
import { PostTags } from "./post-tags";
import { descriptionOf, postDate, postPath, viewsLabel } from "./post-text";
import { SubscribeCompact, SubscribePrompt } from "./subscribe-prompt";
import { useBlogPost } from "./use-blog-post";
import { useBlogSubscription } from "./use-blog-subscription";

/** schema.org Article data, matching what the server puts in <head> for crawlers. */
function articleJsonLd(post: BlogPost, publicUrl: string): Record<string, unknown> {
  const absoluteUrl = (pathOrUrl: string) => new URL(pathOrUrl, publicUrl).href;
  const url = absoluteUrl(postPath(post.slug));
  return {
    "@context": "https://schema.org",
    "@type": "Article",
    headline: post.title,
    description: descriptionOf(post),
    ...(post.featured_image ? { image: [absoluteUrl(post.featured_image)] } : {}),
    author: { "@type": "Person", name: post.author_name },
    publisher: { "@type": "Organization", name: PRODUCT_NAME },
    datePublished: postDate(post),
    dateModified: post.updated_at,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    ...(post.tags.length ? { keywords: post.tags.join(", ") } : {}),
  };
}

/** A blog post page (/blog/{slug}). */
export default function BlogPostPage() {
  const { slug = "" } = useParams<{ slug: string }>();
  const [, navigate] = useLocation();
  const { data: post } = useBlogPost(slug);
  const { publicUrl } = usePublicConfig();
  const subscription = useBlogSubscription();
  const [emailFormOpen, setEmailFormOpen] = useState(false);

  usePageMeta(
    post
      ? {
          title: post.title,
          description: descriptionOf(post),
          path: postPath(post.slug),
          ...(post.featured_image ? { image: post.featured_image } : {}),
          type: "article",
          jsonLd: articleJsonLd(post, publicUrl),
        }
      : { title: "Blog", path: postPath(slug), type: "article" },
  );

  const back = (
    <button type="button" className="btn btn-ghost btn-sm -ml-2 self-start" onClick={() => navigate("/blog")}>
      <span aria-hidden="true">←</span> Back to Blog
    </button>
  );

  if (!post) {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6 sm:py-8">
        {back}
        <PageSpinner label="Loading post..." />
      </div>
    );
  }

  const date = postDate(post);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6 sm:py-8">
      {back}
      <article aria-labelledby="blog-post-title" className="flex flex-col gap-6">
        {post.featured_image && (
          <img
            src={post.featured_image}
            alt={post.title}
            width={1280}
            height={720}
            className="aspect-video h-auto w-full rounded-box bg-base-300 object-cover"
            decoding="async"
            fetchPriority="high"
          />
        )}
        <header className="flex flex-col gap-3">
          <h1 id="blog-post-title" className="break-words text-3xl font-bold leading-tight sm:text-4xl">
            {post.title}
          </h1>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-base-content/70">
            <span>By {post.author_name}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={date}>{formatDate(date, { utc: true })}</time>
            <span aria-hidden="true">·</span>
            <span>{viewsLabel(post.view_count)}</span>
          </p>
          <PostTags tags={post.tags} size="md" />
          <SubscribeCompact subscription={subscription} onRequestEmail={() => setEmailFormOpen(true)} />
        </header>
        <PostContent html={post.content} />
      </article>
      <SubscribePrompt
        subscription={subscription}
        formOpen={emailFormOpen}
        onFormOpenChange={setEmailFormOpen}
      />
    </div>
  );
}
