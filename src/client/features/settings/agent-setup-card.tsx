import { useId, useMemo, useState } from "react";
import { type AgentSetup, agentSetups, PLAN_REQUEST, SAMPLING_NOTE } from "../../../shared/agent-setup";
import { TabList, tabPanelProps } from "../../components/tabs";
import { useToast } from "../../components/toast";

/**
 * Settings → API tokens → Connect a coding agent: copy-paste setup for Claude Code, Cursor, VS Code, Codex,
 * Windsurf, Gemini CLI and the command line, with this site's URL filled in (and the token just made,
 * while it is shown), and how to check that it connected.
 */
export function AgentSetupCard({ token }: { token: string | null }) {
  const id = useId();
  const toast = useToast();
  const setups = useMemo(() => agentSetups(window.location.origin, token ?? undefined), [token]);
  const [selected, setSelected] = useState<AgentSetup["id"]>("claude-code");
  const copy = async (setup: AgentSetup) => {
    try {
      await navigator.clipboard.writeText(setup.text);
      toast.success(`${setup.label} setup copied`);
    } catch {
      toast.error("Copying was refused by the browser: select the text and copy it instead");
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className="card border border-base-300 bg-base-200">
      <div className="card-body gap-3">
        <h2 id={`${id}-title`} className="card-title text-lg">
          Connect a coding agent
        </h2>
        <p className="text-sm text-base-content/70">
          Atomize's MCP server lets an agent pick up a project's next task, mark it done and get the next one.
          Use a write token (a read token can only look).
          {token ? " The token you just made is filled in below." : ""}
        </p>
        <p className="text-sm text-base-content/70" data-testid="agent-plan-request">
          It can also plan a project with its own model, with no API key here: ask it{" "}
          <q className="font-medium text-base-content">{PLAN_REQUEST}</q>. The project then shows as planned
          by your coding agent and grows live as it works.
        </p>
        <p className="text-sm text-base-content/70" data-testid="agent-sampling">
          {SAMPLING_NOTE}
        </p>
        <TabList
          tabs={setups.map((s) => ({ id: s.id, label: s.label }))}
          selected={selected}
          onSelect={setSelected}
          idPrefix={`${id}-setup`}
          label="Agent"
        />
        <p className="text-sm text-base-content/70" data-testid="agent-check">
          To check the connection, ask your agent to list your Atomize projects: the token's "last used" in
          Your tokens shows the time once it has called.
        </p>
        {setups.map((s) => (
          <div key={s.id} {...tabPanelProps(`${id}-setup`, s.id, selected)} className="flex flex-col gap-2">
            <p className="text-sm">{s.where}</p>
            {/* Wrapped, never scrolled: every part of a command can be read and selected, keyboard or not. */}
            <pre
              className="whitespace-pre-wrap break-words rounded-box bg-base-300 p-3 text-xs [overflow-wrap:anywhere]"
              data-testid={`setup-${s.id}`}
            >
              <code>{s.text}</code>
            </pre>
            <button type="button" className="btn btn-sm btn-outline self-start" onClick={() => copy(s)}>
              Copy {s.label} setup
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
