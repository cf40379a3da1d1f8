import { PlaceholderPage } from "../../components/placeholder-page";

export default function TermsPage() {
  return <PlaceholderPage title="Terms of Service" path="/terms" />;
}
