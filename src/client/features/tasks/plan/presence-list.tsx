import type { PlanViewer } from "../../../../shared/schemas/realtime";

const SHOWN = 4;

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return ((parts[0]?.[0] ?? "") + (parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : "")).toUpperCase() || "?";
}

const label = (v: PlanViewer) => (v.agent ? `${v.name} (agent: ${v.agent})` : v.name);

/** The others who have this plan open now: initials, names on hover and for screen readers. */
export function PresenceList({ viewers }: { viewers: PlanViewer[] }) {
  if (viewers.length === 0) return null;
  const names = viewers.map(label);
  const sentence = `Also here: ${names.join(", ")}`;
  return (
    <div className="flex items-center gap-1" data-testid="presence" title={sentence}>
      <span className="sr-only">{sentence}</span>
      <span aria-hidden="true" className="text-xs text-base-content/60">
        Also here
      </span>
      <ul aria-hidden="true" className="flex -space-x-2">
        {viewers.slice(0, SHOWN).map((v) => (
          <li
            key={`${v.user_id}:${v.agent ?? ""}`}
            className={`flex size-7 items-center justify-center rounded-full border-2 border-base-100 text-[0.65rem] font-semibold ${v.agent ? "bg-secondary text-secondary-content" : "bg-primary text-primary-content"}`}
          >
            {initials(v.name)}
          </li>
        ))}
        {viewers.length > SHOWN && (
          <li className="flex size-7 items-center justify-center rounded-full border-2 border-base-100 bg-base-300 text-[0.65rem]">
            +{viewers.length - SHOWN}
          </li>
        )}
      </ul>
    </div>
  );
}
