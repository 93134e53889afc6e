/**
 * The session's todo list, shared by the host (`set_todos`) and the model (the
 * `todo` tool). Phases hold tasks; neither has an id: a task is its content.
 */
import type { TodoStatus } from "./enums.ts";

export interface TodoTask {
  content: string;
  status: TodoStatus;
}

export interface TodoPhase {
  name: string;
  tasks: TodoTask[];
}

export class TodoList {
  private phases: TodoPhase[] = [];

  /** `changed` hears every change the model makes (the todo tool), so no one decodes that tool's result. */
  constructor(private readonly changed: (phases: TodoPhase[]) => void = () => {}) {}

  /**
   * Replaces the list; returns it normalised (only name/tasks and content/status
   * are kept). `quiet`: the host set it (set_todos) and already has its answer.
   */
  set(phases: TodoPhase[], quiet = false): TodoPhase[] {
    this.phases = phases.map((p) => ({ name: p.name, tasks: p.tasks.map((t) => ({ content: t.content, status: t.status })) }));
    if (!quiet) this.changed(this.get());
    return this.get();
  }

  get(): TodoPhase[] {
    return structuredClone(this.phases);
  }

  /** Tasks still open: pending or in progress. */
  open(): TodoTask[] {
    return this.phases.flatMap((p) => p.tasks.filter((t) => t.status === "pending" || t.status === "in_progress"));
  }

  /** True when there are tasks and none is left open. */
  finished(): boolean {
    return this.phases.some((p) => p.tasks.length > 0) && this.open().length === 0;
  }

  clear(): void {
    this.phases = [];
  }

  render(): string {
    if (this.phases.length === 0) return "The todo list is empty.";
    const mark: Record<TodoStatus, string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]", abandoned: "[-]" };
    return this.phases.map((p) => `${p.name}\n${p.tasks.map((t) => `  ${mark[t.status]} ${t.content}`).join("\n")}`).join("\n");
  }
}
