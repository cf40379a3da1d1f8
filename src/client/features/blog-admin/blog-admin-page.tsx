import { PlaceholderPage } from "../../components/placeholder-page";

export default function BlogAdminPage() {
  return <PlaceholderPage title="Blog Admin" path="/admin/blog" />;
}
