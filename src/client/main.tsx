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

type Field = HTMLInputElement | HTMLTextAreaElement;

/** The text in each field the reader has typed into (read before any is reported, as one can reset another). */
function typedFields(): Array<[Field, string]> {
  return [...target.querySelectorAll<Field>("input, textarea")]
    .filter((f) => f.type !== "checkbox" && f.type !== "radio" && f.value !== f.defaultValue)
    .map((f) => [f, f.value]);
}

/**
 * Text typed into a field before hydration is on the page but not in React's state (React 19.3 does not
 * replay it, and re-renders a controlled field with its state). Each field reports what was typed to
 * React as an input event, one at a time, so it is what a submission sends:
 * - a first input event makes React hydrate the field if it has not yet (a discrete event hydrates its
 *   target at once) and set it to its state;
 * - the field is then cleared through React's own value tracking and given the text past it, so the
 *   second input event is a change React reports to the page.
 */
async function reportTypedFields(typed: Array<[Field, string]>): Promise<void> {
  const setNative = (field: Field, text: string) =>
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set?.call(field, text);
  for (const [field, text] of typed) {
    if (!field.isConnected) continue;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.value = "";
    setNative(field, text);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
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
  // The typed values reach React's state before a held press reads it.
  await reportTypedFields(typedFields());
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
