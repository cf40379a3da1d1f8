import { useParams } from "wouter";
import { PlaceholderPage } from "../../components/placeholder-page";

export default function TaskDetailPage() {
  const { taskId = "" } = useParams<{ taskId: string }>();
  return <PlaceholderPage title="Task Details" path={`/tasks/${encodeURIComponent(taskId)}`} />;
}
