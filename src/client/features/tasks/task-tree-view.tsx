import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type KeyboardEvent,
  type Ref,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import { taskTitle } from "../../../shared/task-title";
import { workStatusOf } from "../../../shared/work-state";
import { TaskStatusBadge } from "../../components/task-status-badge";
import { complexityBadgeClass } from "../../lib/complexity-badge";
import { WORK_ACTIONS, type WorkAction, workActions } from "../../lib/task-status";
import { lockText } from "./replan-view";
import { formatComplexity, type TreeRow } from "./task-tree";

const ROW_HEIGHT = 44;
const MAX_HEIGHT = 560;
const PAGE_STEP = 10;

export type TaskTreeViewProps = {
  rows: TreeRow[];
  /** The row the keyboard is on (aria-activedescendant). */
  activeId: string | null;
  selectedId: string | null;
  onActiveChange: (id: string) => void;
  onSelect: (id: string) => void;
  onToggle: (id: string) => void;
  label: string;
  idPrefix: string;
  /**
   * Drag and drop: a row (not the root) dropped on the middle of another goes under it; on its top or
   * bottom edge, before or after it among its siblings.
   */
  onDropOnto?: (draggedId: string, targetId: string, where: DropPlace) => void;
  /** S, D and R on a leaf's row: start it, mark it done, reopen it (issue 40). */
  onWorkKey?: (id: string, action: WorkAction) => void;
  /** The tree's focusable element, so the page can give focus back to it. */
  ref?: Ref<HTMLDivElement>;
};

export type DropPlace = "before" | "inside" | "after";

/** Where a drop lands on a row: its top quarter is before it, its bottom quarter after it (not for the root). */
function dropPlace(event: { clientY: number; currentTarget: Element }, isRoot: boolean): DropPlace {
  if (isRoot) return "inside";
  const rect = event.currentTarget.getBoundingClientRect();
  const y = (event.clientY - rect.top) / Math.max(1, rect.height);
  return y < 0.25 ? "before" : y > 0.75 ? "after" : "inside";
}

const DROP_CLASS: Record<DropPlace, string> = {
  inside: "outline-2 -outline-offset-2 outline-dashed outline-primary",
  before: "shadow-[inset_0_3px_0_0_var(--color-primary)]",
  after: "shadow-[inset_0_-3px_0_0_var(--color-primary)]",
};

const DRAG_TYPE = "application/x-atomize-task";

/** The work action a plain S, D or R names on this row, when the row offers it. */
function workKeyAction(event: KeyboardEvent<HTMLDivElement>, node: TreeRow["node"]): WorkAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key.toLowerCase();
  return workActions(node).find((a) => WORK_ACTIONS[a].key === key) ?? null;
}

/**
 * The task hierarchy as a virtualised ARIA tree: only the rows in view are in the DOM, so thousands of
 * expanded nodes scroll smoothly. Focus stays on the tree and aria-activedescendant names the current
 * row; arrows move and expand/collapse, Enter or Space selects, Home/End jump. A row is named by what
 * it shows (title, status and badges, as read aloud), so the name a speech-input user says is in it.
 */
export function TaskTreeView({
  rows,
  activeId,
  selectedId,
  onActiveChange,
  onSelect,
  onToggle,
  label,
  idPrefix,
  onDropOnto,
  onWorkKey,
  ref,
}: TaskTreeViewProps) {
  const [dropTarget, setDropTarget] = useState<{ id: string; where: DropPlace } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => scrollRef.current as HTMLDivElement, []);
  const indexById = useMemo(() => new Map(rows.map((r, i) => [r.node.id, i])), [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (i) => rows[i]!.node.id,
  });

  const activeIndex = activeId !== null ? (indexById.get(activeId) ?? -1) : -1;
  const effectiveActive = activeIndex >= 0 ? activeId : (rows[0]?.node.id ?? null);

  // Keep the keyboard's row rendered and in view.
  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: "auto" });
  }, [activeIndex, virtualizer]);

  const move = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (row) onActiveChange(row.node.id);
  };

  const onActive = (id: string) => {
    onActiveChange(id);
    onSelect(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
    const i = Math.max(0, activeIndex);
    const row = rows[i]!;
    switch (event.key) {
      case "ArrowDown":
        move(i + 1);
        break;
      case "ArrowUp":
        move(i - 1);
        break;
      case "PageDown":
        move(i + PAGE_STEP);
        break;
      case "PageUp":
        move(i - PAGE_STEP);
        break;
      case "Home":
        move(0);
        break;
      case "End":
        move(rows.length - 1);
        break;
      case "ArrowRight":
        if (row.hasChildren && !row.expanded) onToggle(row.node.id);
        else if (row.expanded) move(i + 1);
        break;
      case "ArrowLeft":
        if (row.expanded) onToggle(row.node.id);
        else if (row.parentId) move(indexById.get(row.parentId) ?? i);
        break;
      case "Enter":
      case " ":
        onActive(row.node.id);
        break;
      default: {
        const action = workKeyAction(event, row.node);
        if (!action || !onWorkKey) return;
        onWorkKey(row.node.id, action);
      }
    }
    event.preventDefault();
  };

  const height = Math.min(MAX_HEIGHT, Math.max(ROW_HEIGHT, rows.length * ROW_HEIGHT)) + 2;

  return (
    <div
      ref={scrollRef}
      role="tree"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={effectiveActive ? `${idPrefix}-${effectiveActive}` : undefined}
      onKeyDown={onKeyDown}
      className="group relative overflow-auto overscroll-contain rounded-box border border-base-300 bg-base-100 [--tree-indent:0.75rem] sm:[--tree-indent:1.25rem]"
      style={{ height }}
    >
      <div role="none" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const { node } = row;
          const domId = `${idPrefix}-${node.id}`;
          const active = node.id === effectiveActive;
          const selected = node.id === selectedId;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the tree (aria-activedescendant)
            <div
              key={item.key}
              id={domId}
              role="treeitem"
              aria-level={row.level}
              aria-posinset={row.posInSet}
              aria-setsize={row.setSize}
              aria-expanded={row.hasChildren ? row.expanded : undefined}
              aria-selected={selected}
              data-testid="tree-row"
              tabIndex={-1}
              className={`absolute left-0 top-0 flex w-full cursor-pointer items-center gap-2 border-b border-base-300/50 pr-2 text-sm ${
                selected ? "bg-primary/15" : "hover:bg-base-200"
              } ${active ? "group-focus-visible:outline-2 group-focus-visible:-outline-offset-2 group-focus-visible:outline-primary" : ""} ${
                dropTarget?.id === node.id ? DROP_CLASS[dropTarget.where] : ""
              }`}
              draggable={onDropOnto !== undefined && row.level > 1}
              onDragStart={(event) => {
                event.dataTransfer.setData(DRAG_TYPE, node.id);
                event.dataTransfer.effectAllowed = "move";
              }}
              onDragOver={(event) => {
                if (!onDropOnto || !event.dataTransfer.types.includes(DRAG_TYPE)) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = "move";
                const where = dropPlace(event, row.level === 1);
                if (dropTarget?.id !== node.id || dropTarget.where !== where)
                  setDropTarget({ id: node.id, where });
              }}
              onDragLeave={() => setDropTarget((t) => (t?.id === node.id ? null : t))}
              onDrop={(event) => {
                const dragged = event.dataTransfer.getData(DRAG_TYPE);
                setDropTarget(null);
                if (!onDropOnto || !dragged || dragged === node.id) return;
                event.preventDefault();
                onDropOnto(dragged, node.id, dropPlace(event, row.level === 1));
              }}
              onDragEnd={() => setDropTarget(null)}
              style={{
                height: item.size,
                transform: `translateY(${item.start}px)`,
                paddingLeft: `calc(0.25rem + ${row.level - 1} * var(--tree-indent))`,
              }}
              onMouseDown={(event) => {
                // Focus stays on the tree, which owns the keyboard (aria-activedescendant). A row that
                // can be dragged keeps the default (preventing it, or moving focus now, stops the drag);
                // its click hands focus back to the tree.
                if (onDropOnto && row.level > 1) return;
                event.preventDefault();
                scrollRef.current?.focus({ preventScroll: true });
              }}
              onClick={() => {
                scrollRef.current?.focus({ preventScroll: true });
                onActive(node.id);
              }}
            >
              {row.hasChildren ? (
                // A mouse target only: the tree's ArrowRight and ArrowLeft expand and collapse, and the
                // row's aria-expanded says which it is. Not a button inside the row, whose name would
                // then begin the row's name.
                <span
                  aria-hidden="true"
                  data-testid="tree-toggle"
                  className="btn btn-ghost btn-xs btn-square shrink-0"
                  onClick={(event) => {
                    event.stopPropagation();
                    onActiveChange(node.id);
                    onToggle(node.id);
                  }}
                >
                  <svg
                    viewBox="0 0 20 20"
                    className={`size-4 transition-transform ${row.expanded ? "rotate-90" : ""}`}
                    fill="currentColor"
                  >
                    <path d="M7 5l6 5-6 5V5z" />
                  </svg>
                </span>
              ) : (
                <span className="w-6 shrink-0" aria-hidden="true" />
              )}
              <span className="min-w-0 flex-1 truncate" title={node.description}>
                {taskTitle(node.description, 141)}
              </span>
              <span className="flex shrink-0 items-center gap-1">
                {row.level === 1 && (
                  <span className="badge badge-ghost badge-sm hidden sm:inline-flex">Root</span>
                )}
                {/* A group's (and the project's) work is its leaves' (shared/work-state.ts). */}
                <TaskStatusBadge status={workStatusOf(node)} screen="detail" compact />
                {(node.locked ?? []).length > 0 && (
                  <span
                    className="badge badge-sm badge-ghost"
                    title={lockText(node.locked ?? [])}
                    data-testid="lock-mark"
                  >
                    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3" fill="currentColor">
                      <path d="M6 8V6a4 4 0 1 1 8 0v2h1a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1h1Zm2 0h4V6a2 2 0 1 0-4 0v2Z" />
                    </svg>
                    <span className="sr-only">{lockText(node.locked ?? [])}</span>
                  </span>
                )}
                {node.needs_attention && (
                  <span
                    className="badge badge-sm badge-warning"
                    title={node.attention_reason ?? "This subtask could not be split"}
                  >
                    <span aria-hidden="true">!</span>
                    <span className="hidden sm:inline">Needs attention</span>
                    <span className="sr-only sm:hidden">Needs attention</span>
                  </span>
                )}
                {node.complexity_score !== null && (
                  <>
                    {/* On a phone the title gets the room; the score stays in the row's name. */}
                    <span
                      className={`badge badge-sm badge-soft hidden tabular-nums sm:inline-flex ${complexityBadgeClass(node.complexity_score)}`}
                    >
                      <span className="sr-only">Complexity </span>
                      {formatComplexity(node.complexity_score)}
                    </span>
                    <span className="sr-only sm:hidden">
                      Complexity {formatComplexity(node.complexity_score)}
                    </span>
                  </>
                )}
                {node.story_points !== null && (
                  <span className="badge badge-sm badge-outline hidden tabular-nums sm:inline-flex">
                    {node.story_points} SP<span className="sr-only"> (story points)</span>
                  </span>
                )}
                {node.is_atomic && (
                  <span className="badge badge-sm badge-accent badge-soft" title="Atomic task">
                    <span aria-hidden="true" className="sm:hidden">
                      A
                    </span>
                    <span className="hidden sm:inline">Atomic</span>
                    <span className="sr-only sm:hidden">Atomic</span>
                  </span>
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
