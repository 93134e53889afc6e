/**
 * Status the host can show without asking for it: retry and compaction
 * progress as `setStatus`, the todo list as a `setWidget`. Derived from the
 * attached conversation's events, so the agent never knows a UI exists.
 */
import type { AgentEvent } from "../agent/events.ts";
import type { TodoPhase } from "../core/todos.ts";
import type { HostUi } from "../host/services.ts";

export function todoWidgetLines(phases: TodoPhase[]): string[] | undefined {
  if (phases.length === 0) return undefined;
  const mark = { pending: "[ ]", in_progress: "[~]", completed: "[x]", abandoned: "[-]" } as const;
  return phases.flatMap((p) => [p.name, ...p.tasks.map((t) => `  ${mark[t.status]} ${t.content}`)]);
}

export function uiSignals(ui: HostUi): (event: AgentEvent) => void {
  return (event) => {
    switch (event.type) {
      case "auto_retry_start":
        ui.setStatus("retry", `Retrying (attempt ${event.attempt} of ${event.maxAttempts}) in ${Math.ceil(event.delayMs / 1000)} s: ${event.errorMessage}`);
        break;
      case "auto_retry_end":
        ui.setStatus("retry");
        break;
      case "auto_compaction_start":
        ui.setStatus("compaction", "Compacting the conversation…");
        break;
      case "auto_compaction_end":
        ui.setStatus("compaction");
        break;
      case "todos_changed":
        ui.setWidget("todos", todoWidgetLines(event.phases));
        break;
      case "todo_auto_clear":
        ui.setWidget("todos");
        break;
    }
  };
}
