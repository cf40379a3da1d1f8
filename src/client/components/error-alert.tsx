/** An error, said at once (role="alert"): an alert box, or with `line` a line of red text; nothing without one. */
export function ErrorAlert({
  message,
  line = false,
}: {
  message: string | null | undefined;
  line?: boolean;
}) {
  if (!message) return null;
  if (line) {
    return (
      <p role="alert" className="text-sm text-error">
        {message}
      </p>
    );
  }
  return (
    <div role="alert" className="alert alert-error text-sm">
      {message}
    </div>
  );
}
