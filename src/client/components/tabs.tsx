import { type KeyboardEvent, type ReactNode, useRef } from "react";

export type TabItem<Id extends string> = { id: Id; label: ReactNode };

/**
 * A WAI-ARIA tab list with automatic activation: arrow keys, Home and End move between tabs and
 * select them; only the selected tab is in the Tab order. Panels use `tabPanelProps`.
 */
export function TabList<Id extends string>({
  tabs,
  selected,
  onSelect,
  idPrefix,
  label,
  className = "",
}: {
  tabs: readonly TabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  idPrefix: string;
  label: string;
  className?: string;
}) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === selected);
    let next: number | null = null;
    if (event.key === "ArrowRight") next = (i + 1) % tabs.length;
    else if (event.key === "ArrowLeft") next = (i - 1 + tabs.length) % tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    const id = tabs[next]!.id;
    onSelect(id);
    refs.current.get(id)?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      className={`tabs tabs-border flex-nowrap overflow-x-auto ${className}`}
      onKeyDown={onKeyDown}
    >
      {tabs.map((tab) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(el) => {
              if (el) refs.current.set(tab.id, el);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={active}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
            tabIndex={active ? 0 : -1}
            className={`tab shrink-0 gap-2 whitespace-nowrap px-3 sm:px-4 ${active ? "tab-active font-semibold" : ""}`}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

export function tabPanelProps(idPrefix: string, id: string, selected: string) {
  return {
    role: "tabpanel" as const,
    id: `${idPrefix}-panel-${id}`,
    "aria-labelledby": `${idPrefix}-tab-${id}`,
    hidden: id !== selected,
    tabIndex: 0,
  };
}
