import { useParams } from "wouter";
import { PlaceholderPage } from "../../components/placeholder-page";

export default function BlogPostPage() {
  const { slug = "" } = useParams<{ slug: string }>();
  return <PlaceholderPage title="Blog Post" path={`/blog/${encodeURIComponent(slug)}`} />;
}
