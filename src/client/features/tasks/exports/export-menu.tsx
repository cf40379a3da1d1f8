import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";

export type ExportMenuItem = {
  id: string;
  label: string;
  onSelect: () => void;
  /** Why it is unavailable (shown as its tooltip and description); null when it can be chosen. */
  disabledReason?: string | null;
  /** Starts a group (a divider above it). */
  separated?: boolean;
};

/**
 * A WAI-ARIA menu button: Enter, Space or ArrowDown opens it on the first item (ArrowUp on the last);
 * arrow keys, Home and End move; Escape or Tab closes it; a click outside closes it. Unavailable items
 * stay focusable (aria-disabled) so their reason can be read and hovered.
 */
export function ExportMenu({ items, busy = false }: { items: ExportMenuItem[]; busy?: boolean }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const pendingFocus = useRef<number | null>(null);
  const id = useId();
  const buttonId = `${id}-button`;
  const menuId = `${id}-menu`;

  const focusItem = (index: number) => {
    const n = items.length;
    itemRefs.current[((index % n) + n) % n]?.focus();
  };

  const openAt = (index: number) => {
    pendingFocus.current = index;
    setOpen(true);
  };
  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  // Focus moves into the menu once it is rendered.
  useEffect(() => {
    if (!open || pendingFocus.current === null) return;
    focusItem(pendingFocus.current);
    pendingFocus.current = null;
  });

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openAt(0);
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      openAt(items.length - 1);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close();
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = itemRefs.current.indexOf(document.activeElement as HTMLButtonElement);
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        focusItem(current + 1);
        break;
      case "ArrowUp":
        event.preventDefault();
        focusItem(current - 1);
        break;
      case "Home":
        event.preventDefault();
        focusItem(0);
        break;
      case "End":
        event.preventDefault();
        focusItem(items.length - 1);
        break;
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        close();
        break;
      case "Tab":
        close(false);
        break;
      default: {
        // Type-ahead: the next item starting with the typed letter.
        if (event.key.length === 1 && /\S/.test(event.key)) {
          const key = event.key.toLowerCase();
          const labels = items.map((i) => i.label.replace(/^Export (as|to) /, "").toLowerCase());
          for (let step = 1; step <= items.length; step++) {
            const j = (current + step) % items.length;
            if (labels[j]!.startsWith(key)) {
              focusItem(j);
              break;
            }
          }
        }
      }
    }
  };

  const choose = (item: ExportMenuItem) => {
    if (item.disabledReason) return;
    close();
    item.onSelect();
  };

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className="btn btn-primary btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        {busy ? (
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        ) : (
          <span aria-hidden="true">⇩</span>
        )}
        Export
        <span aria-hidden="true" className={`text-xs transition-transform ${open ? "rotate-180" : ""}`}>
          ▾
        </span>
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          tabIndex={-1}
          onKeyDown={onMenuKeyDown}
          className="absolute left-0 z-40 mt-1 flex w-72 max-w-[calc(100vw-2rem)] flex-col rounded-box border border-base-300 bg-base-100 p-1 shadow-xl lg:right-0 lg:left-auto"
        >
          {items.map((item, index) => {
            const reasonId = `${id}-${item.id}-reason`;
            const disabled = Boolean(item.disabledReason);
            return (
              <div
                key={item.id}
                role="none"
                className={item.separated ? "mt-1 border-t border-base-300 pt-1" : ""}
              >
                <button
                  ref={(el) => {
                    itemRefs.current[index] = el;
                  }}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  aria-disabled={disabled || undefined}
                  aria-describedby={disabled ? reasonId : undefined}
                  title={item.disabledReason ?? undefined}
                  onClick={() => choose(item)}
                  className={`flex w-full flex-col items-start rounded-field px-3 py-2 text-left text-sm focus-visible:-outline-offset-2 ${
                    disabled
                      ? "cursor-not-allowed text-base-content/50 focus:bg-base-200"
                      : "hover:bg-base-200 focus:bg-base-200"
                  }`}
                >
                  <span>{item.label}</span>
                  {/* The reason is the item's description, not part of its name (which is its label). */}
                  {disabled && (
                    <span id={reasonId} aria-hidden="true" className="text-xs text-base-content/60">
                      {item.disabledReason}
                    </span>
                  )}
                </button>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
