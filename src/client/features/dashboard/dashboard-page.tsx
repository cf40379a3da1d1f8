import { ConnectionIndicator } from "../../components/connection-indicator";
import { PlaceholderPage } from "../../components/placeholder-page";

export default function DashboardPage() {
  return (
    <PlaceholderPage title="Dashboard" path="/dashboard">
      <div className="mt-6">
        <ConnectionIndicator />
      </div>
    </PlaceholderPage>
  );
}
