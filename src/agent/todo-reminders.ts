/**
 * The todo list at a run's edges: when the model would stop with todos still
 * open it is reminded once per prompt; when every task is done, the list
 * clears itself as the run settles.
 */
import type { UserMessage } from "../core/messages.ts";
import type { TodoList } from "../core/todos.ts";
import type { Emit } from "./events.ts";
import { userMessage } from "./queues.ts";

export class TodoReminders {
  private left = 1;

  constructor(
    private readonly todos: TodoList,
    private readonly emit: Emit,
  ) {}

  /** A new prompt: one reminder again. */
  arm(): void {
    this.left = 1;
  }

  beforeStop(): UserMessage[] {
    const open = this.todos.open();
    if (open.length === 0 || this.left <= 0) return [];
    this.left--;
    this.emit({ type: "todo_reminder", todos: open, phases: this.todos.get() });
    const list = open.map((t) => `- ${t.content} (${t.status})`).join("\n");
    return [userMessage(`Reminder: these todo items are still open:\n${list}\nContinue with them, or update the todo list if they are done or no longer needed.`, [])];
  }

  /** The run settled: a finished list clears itself. */
  settle(): void {
    if (!this.todos.finished()) return;
    const phases = this.todos.get();
    this.todos.clear();
    this.emit({ type: "todo_auto_clear", phases });
  }
}
