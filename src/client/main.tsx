// The browser's entry: small on purpose, with no React in it. It applies the reader's theme and starts React
// (start.tsx). A public page the server rendered in full for a visitor (no session) is complete without
// scripts: its links are plain links and it reads, scrolls and navigates as it is. React loads and
// hydrates it once the page has loaded and the browser is idle, or at the reader's first touch, key or
// focus if that comes sooner, so a phone on a slow network spends its first bytes on the page itself
// (decision 023). Every other page starts React at once.
import { pageBootstrap } from "./lib/bootstrap";
import { hasSessionMarker } from "./lib/session-marker";
import { applyStoredTheme } from "./lib/theme-dom";
import "./styles.css";

applyStoredTheme();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
const target: HTMLElement = root;

/** What the reader does that should start React at once rather than at idle. */
const FIRST_INPUT = ["pointerdown", "keydown", "focusin", "touchstart"] as const;

/** Buttons pressed and forms submitted before React listened, done again once it does. */
const pending: Array<() => void> = [];

/**
 * Before hydration, a press on a button (a link navigates by itself) or a form's submission would be
 * lost: it is held and done again once React listens.
 */
function holdEarlyActions(): () => void {
  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.("button, [role='button'], summary");
    if (!button || !target.contains(button) || button.closest("a[href]")) return;
    event.preventDefault();
    event.stopPropagation();
    pending.push(() => {
      if (button.isConnected) (button as HTMLElement).click();
    });
  };
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target as HTMLFormElement;
    if (!target.contains(form)) return;
    event.preventDefault();
    const submitter = event.submitter;
    pending.push(() => {
      if (form.isConnected) form.requestSubmit(submitter?.isConnected ? submitter : undefined);
    });
  };
  document.addEventListener("click", onClick, true);
  document.addEventListener("submit", onSubmit, true);
  return () => {
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("submit", onSubmit, true);
  };
}

/** Resolves once the page has loaded and the browser is idle (or after a second at most). */
function whenIdle(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve(), { once: true });
    const idle = () =>
      "requestIdleCallback" in window
        ? window.requestIdleCallback(() => resolve(), { timeout: 1000 })
        : setTimeout(resolve, 1);
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle, { once: true });
  });
}

/**
 * Text typed into a field before hydration is on the page but not in React's state (React 19.3 does not
 * replay it): each such field reports its value to React as an input event, so what the reader typed is
 * what a submission sends. The field is first set back through React's own value tracking, then to the
 * typed text past it, so React sees a change.
 */
function reportTypedFields(): void {
  for (const field of target.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
    if (field.type === "checkbox" || field.type === "radio" || field.value === field.defaultValue) continue;
    const typed = field.value;
    field.value = field.defaultValue;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set?.call(field, typed);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

async function startReact(deferred: { release(): void } | null): Promise<void> {
  const { start } = await import("./start");
  await start(target);
  if (!deferred) return;
  // React attaches its listeners as hydration begins; the held actions go once the page has hydrated.
  const hydrated = () => target.hasAttribute("data-hydrated");
  if (!hydrated()) {
    await new Promise<void>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!hydrated()) return;
        observer.disconnect();
        resolve();
      });
      observer.observe(target, { attributes: true, attributeFilter: ["data-hydrated"] });
    });
  }
  deferred.release();
  reportTypedFields();
  // The typed values reach React's state before a held press reads it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (const action of pending.splice(0)) action();
}

const bootstrap = pageBootstrap();
if (bootstrap?.hydrate === "idle" && !hasSessionMarker()) {
  const release = holdEarlyActions();
  const firstInput = new AbortController();
  for (const type of FIRST_INPUT)
    window.addEventListener(type, () => firstInput.abort(), { once: true, passive: true, capture: true });
  void whenIdle(firstInput.signal)
    .then(() => startReact({ release }))
    .catch((err: unknown) => {
      // The page still reads and navigates; its buttons work again as plain HTML.
      release();
      console.warn("[atomize] could not start the page's scripts", err);
    });
} else {
  void startReact(null);
}
