/**
 * What a front end (rpc, rpc-ui, acp) can offer the tools beyond the local
 * machine: dialogs with the user, files behind host URI schemes, the todo list
 * and child agents. Tools use whichever are present and say so when not.
 */
import type { TodoList } from "../core/todos.ts";

export interface DialogOptions {
  /** ms; on expiry the dialog resolves to its default and the host is told to close it */
  timeout?: number;
  signal?: AbortSignal;
  /** input only: the answer is a secret (an API key), so the host should mask what is typed */
  secret?: boolean;
}

/** The extension UI methods of Pi's sub-protocol, as calls. */
export interface HostUi {
  select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined>;
  confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean>;
  input(title: string, placeholder?: string, opts?: DialogOptions): Promise<string | undefined>;
  editor(title: string, prefill?: string, opts?: DialogOptions): Promise<string | undefined>;
  notify(message: string, notifyType?: "info" | "warning" | "error"): void;
  setStatus(statusKey: string, statusText?: string): void;
  setWidget(widgetKey: string, widgetLines?: string[], widgetPlacement?: "aboveEditor" | "belowEditor"): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
  openUrl(request: { url: string; instructions?: string; credential?: "oauth" | "api-key" }): void;
}

export interface UriReadResult {
  content: string;
  contentType?: string;
  notes?: string[];
  immutable?: boolean;
}

/** Reads and writes of `<scheme>://…` served by the host. */
export interface HostUris {
  /** the registered scheme of `path`, if it names one */
  schemeOf(path: string): { scheme: string; writable: boolean } | undefined;
  read(url: string, signal: AbortSignal): Promise<UriReadResult>;
  write(url: string, content: string, signal: AbortSignal): Promise<void>;
}

export interface SubagentRequest {
  task: string;
  tools?: string[];
  model?: string;
}

export interface SubagentRunner {
  run(request: SubagentRequest, signal: AbortSignal, onProgress: (text: string) => void): Promise<{ agentId: string; text: string; isError: boolean }>;
}

export interface HostServices {
  ui?: HostUi;
  uris?: HostUris;
  todos?: TodoList;
  subagents?: SubagentRunner;
}
