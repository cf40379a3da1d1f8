import type { RealtimeEvent } from "../../../shared/schemas/realtime";
import type { BusEvent } from "../../events/event-bus";

/** The client-facing shape: the owner and team ids stay on the server. */
export function toClient(e: BusEvent): RealtimeEvent {
  const { user_id: _owner, team_id: _team, ...event } = e;
  return event;
}
