import { PlaceholderPage } from "../../components/placeholder-page";

export default function BlogListPage() {
  return <PlaceholderPage title="Blog" path="/blog" />;
}
