import type { ConnectionTestResult } from "../../../shared/schemas/model-providers";
import { testResultText } from "./model-provider-form";

/** The last "Test connection" outcome, announced politely; empty until a test ran. */
export function TestResult({ result, id }: { result: ConnectionTestResult | null; id: string }) {
  return (
    <div id={id} role="status" aria-live="polite">
      {result && (
        <div
          className={`alert alert-soft items-start text-sm ${result.ok ? "alert-success" : "alert-error"}`}
          data-testid="connection-test-result"
        >
          <div className="min-w-0">
            <p className="font-semibold">{result.ok ? "The model answered" : "The connection failed"}</p>
            <p className="mt-1 break-words">{testResultText(result)}</p>
            {result.ok && result.model && (
              <p className="mt-1 text-base-content/70">Model reported by the provider: {result.model}</p>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
