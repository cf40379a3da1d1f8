import { type MouseEvent, useId } from "react";
import { Link } from "wouter";
import type { BlogPost } from "../../../shared/schemas/blog";
import { formatDate } from "../../lib/time-format";
import { PostTags } from "./post-tags";
import { CARD_TAGS_MAX, excerptOf, postDate, postPath } from "./post-text";

/** True when the click landed on a control inside the card or ended a text selection. */
function isInnerAction(event: MouseEvent<HTMLElement>): boolean {
  const target = event.target as HTMLElement;
  if (target.closest("a, button, input, select, textarea, label")) return true;
  return (window.getSelection()?.toString() ?? "") !== "";
}

/**
 * A blog post card: featured image, title, 'By {author_name}', date, excerpt and up to 3 tags. The
 * whole card opens the post; keyboard and screen-reader users get there through the title link.
 */
export function PostCard({ post, onOpen }: { post: BlogPost; onOpen: (post: BlogPost) => void }) {
  const titleId = useId();
  const date = postDate(post);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the title link is the keyboard path to the same page
    <article
      aria-labelledby={titleId}
      data-testid="blog-post-card"
      className="card h-full cursor-pointer overflow-hidden border border-base-300 bg-base-200 shadow-sm transition hover:border-primary/60 hover:shadow-md"
      onClick={(event) => {
        if (!isInnerAction(event)) onOpen(post);
      }}
    >
      {post.featured_image ? (
        <figure className="aspect-video bg-base-300">
          <img
            src={post.featured_image}
            alt={post.title}
            width={640}
            height={360}
            loading="lazy"
            decoding="async"
            className="h-full w-full object-cover"
          />
        </figure>
      ) : (
        <div
          aria-hidden="true"
          className="aspect-video bg-gradient-to-br from-primary/25 via-secondary/15 to-accent/25"
        />
      )}
      <div className="card-body gap-3 p-4 sm:p-5">
        <h2 id={titleId} className="card-title break-words text-lg leading-snug">
          <Link href={postPath(post.slug)} className="hover:text-primary hover:underline">
            {post.title}
          </Link>
        </h2>
        <p className="flex grow-0 flex-wrap gap-x-2 text-sm text-base-content/70">
          <span>By {post.author_name}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={date}>{formatDate(date, { utc: true })}</time>
        </p>
        <p className="line-clamp-4 break-words text-sm text-base-content/85">{excerptOf(post)}</p>
        <div className="mt-auto">
          <PostTags tags={post.tags} max={CARD_TAGS_MAX} />
        </div>
      </div>
    </article>
  );
}

export function PostCardSkeleton() {
  return (
    <div aria-hidden="true" className="card overflow-hidden border border-base-300 bg-base-200">
      <div className="skeleton aspect-video rounded-none" />
      <div className="card-body gap-3 p-4 sm:p-5">
        <div className="skeleton h-6 w-3/4" />
        <div className="skeleton h-4 w-1/2" />
        <div className="skeleton h-16 w-full" />
      </div>
    </div>
  );
}
