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
import { taskTitle } from "../../../../shared/task-title";
import { workStatusOf } from "../../../../shared/work-state";
import { TaskStatusBadge } from "../../../components/task-status-badge";
import { complexityBadgeClass } from "../../../lib/complexity-badge";
import { WORK_ACTIONS, type WorkAction, workActions } from "../../../lib/task-status";
import { lockText } from "../shared/replan-view";
import { formatComplexity, type TreeRow } from "../shared/task-tree";

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
  /**
   * S, D and R on a leaf's row: start it, mark it done, reopen it (issue 40). With it, each row also has
   * a menu of them (the row's ⋯, a right-click, or the Menu key / Shift+F10 on the row).
   */
  onWorkKey?: (id: string, action: WorkAction) => void;
  /** Who works on which leaf (issue 41): a mark on the row, its words read with the row. */
  claimOf?: (id: string) => string | undefined;
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
  claimOf,
  ref,
}: TaskTreeViewProps) {
  const [dropTarget, setDropTarget] = useState<{ id: string; where: DropPlace } | null>(null);
  /** The open row menu: its row, and where it opens in the tree's box (px from its top left). */
  const [menu, setMenu] = useState<{ id: string; top: number; left: number | null } | null>(null);
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

  /** Opens a row's menu below the row, or at the pointer (a right-click). */
  const openMenu = (id: string, at: { clientX: number; clientY: number } | null) => {
    const i = indexById.get(id);
    const box = scrollRef.current;
    if (!onWorkKey || i === undefined || !box || workActions(rows[i]!.node).length === 0) return;
    onActiveChange(id);
    const rect = box.getBoundingClientRect();
    setMenu(
      at
        ? { id, top: at.clientY - rect.top, left: at.clientX - rect.left }
        : {
            id,
            top: Math.min(box.clientHeight, (virtualizer.measurementsCache[i]?.end ?? 0) - box.scrollTop),
            left: null,
          },
    );
  };
  const closeMenu = () => {
    setMenu(null);
    scrollRef.current?.focus({ preventScroll: true });
  };
  const menuNode = menu ? rows[indexById.get(menu.id) ?? -1]?.node : undefined;

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
      case "ContextMenu":
        openMenu(row.node.id, null);
        break;
      case "F10":
        if (!event.shiftKey) return;
        openMenu(row.node.id, null);
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
    <div className="relative">
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
                onContextMenu={(event) => {
                  if (!onWorkKey || workActions(node).length === 0) return;
                  event.preventDefault();
                  openMenu(node.id, event);
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
                  {claimOf?.(node.id) && (
                    <span
                      className="badge badge-sm badge-info badge-soft"
                      title={claimOf(node.id)}
                      data-testid="claim-mark"
                    >
                      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3" fill="currentColor">
                        <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
                      </svg>
                      <span className="sr-only">{claimOf(node.id)}</span>
                    </span>
                  )}
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
                  {onWorkKey && workActions(node).length > 0 && (
                    // A pointer target, as the expand toggle is: the keyboard opens the same menu with the
                    // Menu key or Shift+F10, so the row's name stays what it shows.
                    <span
                      aria-hidden="true"
                      data-testid="tree-row-menu-button"
                      title="Actions (Menu key or Shift+F10)"
                      className="btn btn-ghost btn-xs btn-square"
                      onClick={(event) => {
                        event.stopPropagation();
                        if (menu?.id === node.id) closeMenu();
                        else openMenu(node.id, null);
                      }}
                    >
                      <svg viewBox="0 0 20 20" className="size-4" fill="currentColor">
                        <path d="M4 10a1.5 1.5 0 1 1 3 0 1.5 1.5 0 0 1-3 0Zm4.5 0a1.5 1.5 0 1 1 3 0 1.5 1.5 0 0 1-3 0Zm4.5 0a1.5 1.5 0 1 1 3 0 1.5 1.5 0 0 1-3 0Z" />
                      </svg>
                    </span>
                  )}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      {menu && menuNode && (
        <RowMenu
          node={menuNode}
          top={menu.top}
          left={menu.left}
          onClose={closeMenu}
          onPick={(action) => {
            closeMenu();
            if (action === "details") onActive(menuNode.id);
            else onWorkKey?.(menuNode.id, action);
          }}
        />
      )}
    </div>
  );
}

/**
 * A row's menu (issue 40): its work actions and its details, as a menu the arrow keys move through;
 * Escape, Tab or a click elsewhere closes it and gives the tree its focus back.
 */
function RowMenu({
  node,
  top,
  left,
  onClose,
  onPick,
}: {
  node: TreeRow["node"];
  top: number;
  left: number | null;
  onClose: () => void;
  onPick: (action: WorkAction | "details") => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const items: { action: WorkAction | "details"; label: string; key?: string }[] = [
    ...workActions(node).map((a) => ({
      action: a,
      label: a === "reopen" ? "Reopen…" : a === "done" ? "Mark done" : WORK_ACTIONS[a].label,
      key: WORK_ACTIONS[a].key.toUpperCase(),
    })),
    { action: "details", label: "Open details" },
  ];
  const close = useRef(onClose);
  close.current = onClose;
  // On opening only: the first item takes the focus, and a press elsewhere closes the menu.
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const away = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) close.current();
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const i = list.indexOf(document.activeElement as HTMLElement);
    const focus = (n: number) => list[(n + list.length) % list.length]?.focus();
    switch (event.key) {
      case "ArrowDown":
        focus(i + 1);
        break;
      case "ArrowUp":
        focus(i - 1);
        break;
      case "Home":
        focus(0);
        break;
      case "End":
        focus(list.length - 1);
        break;
      case "Escape":
      case "Tab":
        onClose();
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label={`Actions for ${taskTitle(node.description, 60)}`}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="tree-row-menu"
      className="menu absolute z-20 w-48 rounded-box border border-base-300 bg-base-100 p-1 shadow-lg"
      style={{ top, ...(left === null ? { right: "0.5rem" } : { left: Math.max(0, left - 8) }) }}
    >
      {items.map((item) => (
        <button
          key={item.action}
          type="button"
          role="menuitem"
          tabIndex={-1}
          aria-keyshortcuts={item.key}
          className="flex w-full items-center justify-between rounded-field px-3 py-2 text-left text-sm hover:bg-base-200 focus-visible:bg-base-200 focus-visible:outline-2 focus-visible:outline-primary"
          onClick={() => onPick(item.action)}
        >
          {item.label}
          {item.key && (
            <span className="kbd kbd-xs" aria-hidden="true">
              {item.key}
            </span>
          )}
        </button>
      ))}
    </div>
  );
}
