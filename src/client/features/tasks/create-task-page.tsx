import { PlaceholderPage } from "../../components/placeholder-page";

export default function CreateTaskPage() {
  return <PlaceholderPage title="Create Task" path="/tasks/create" />;
}
