/** A post's tags as a labelled list of badges; `max` keeps the first few (cards show 3). */
export function PostTags({ tags, max, size = "sm" }: { tags: string[]; max?: number; size?: "sm" | "md" }) {
  const shown = max === undefined ? tags : tags.slice(0, max);
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {shown.map((tag) => (
        <li key={tag} className={`badge badge-outline badge-primary ${size === "sm" ? "badge-sm" : ""}`}>
          {tag}
        </li>
      ))}
    </ul>
  );
}
