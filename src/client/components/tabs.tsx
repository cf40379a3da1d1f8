import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * Whether a scrolling row has more to its right (or left) than it shows: phones cut the tab bar, and
 * nothing said it scrolls (issue 40). Followed on scroll and on resize.
 */
function useOverflowEdges(ref: React.RefObject<HTMLElement | null>) {
  const [edges, setEdges] = useState({ start: false, end: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((e) => (e.start === start && e.end === end ? e : { start, end }));
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      el.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, [ref]);
  return edges;
}

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
  const listRef = useRef<HTMLDivElement>(null);
  const edges = useOverflowEdges(listRef);

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
      className={`relative ${className}`}
      data-overflow={edges.end ? "end" : edges.start ? "start" : "none"}
    >
      {/* A fade at an edge with more beyond it: the bar scrolls. */}
      {edges.start && (
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 left-0 z-10 w-8 bg-gradient-to-r from-base-100 to-transparent"
        />
      )}
      {edges.end && (
        <span
          aria-hidden="true"
          data-testid="tabs-more"
          className="pointer-events-none absolute inset-y-0 right-0 z-10 flex w-10 items-center justify-end bg-gradient-to-l from-base-100 to-transparent pr-1 text-base-content/60"
        >
          ›
        </span>
      )}
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        className="tabs tabs-border flex-nowrap overflow-x-auto"
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
