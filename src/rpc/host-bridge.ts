/**
 * The host sub-protocols over JSON lines: host_tool_call/cancel ↔
 * host_tool_update/result, host_uri_request/cancel ↔ host_uri_result, and
 * extension_ui_request ↔ extension_ui_response. Replies with an unknown id
 * get no response at all; once stdin closes, everything pending fails.
 */
import { HOST_GONE, HostGone, PendingTable, prefixedIds } from "../host/pending.ts";
import type { HostToolCaller } from "../tools/host-tools.ts";
import type { DialogOptions, HostUi, HostUris, UriReadResult } from "../host/services.ts";
import type { ReplyOf } from "./commands.ts";
import type { ImageContent, TextContent } from "../core/messages.ts";
import { ToolError } from "../tools/types.ts";

type Send = (frame: object) => void;
type UiReply = ReplyOf<"extension_ui_response">;
type ToolReply = ReplyOf<"host_tool_result">;
type UriReply = ReplyOf<"host_uri_result">;

export interface SchemeDefinition {
  scheme: string;
  description?: string;
  writable?: boolean;
  immutable?: boolean;
}

export class HostBridge {
  private readonly toolCalls = new PendingTable<string, ToolReply>(prefixedIds("host"));
  private readonly uriRequests = new PendingTable<string, UriReply>(prefixedIds("uri"));
  private readonly dialogs = new PendingTable<string, UiReply>(prefixedIds("ui"));
  private schemes = new Map<string, SchemeDefinition>();
  private notices = 0;
  private cancels = 0;

  constructor(
    private readonly send: Send,
    private readonly emitTitle: boolean,
  ) {}

  // ----- host tools -----

  callTool: HostToolCaller = async (call, ctx) => {
    let reply: ToolReply;
    try {
      reply = await this.toolCalls.open((id) => this.send({ type: "host_tool_call", id, toolCallId: call.toolCallId, toolName: call.toolName, arguments: call.arguments }), {
        signal: ctx.signal,
        cancel: (targetId) => this.send({ type: "host_tool_cancel", id: `host_cancel_${++this.cancels}`, targetId }),
        onUpdate: (partial) => ctx.onUpdate(toResult(partial as ToolReply["result"])),
      });
    } catch (error) {
      if (error instanceof HostGone) throw new ToolError(`${call.toolName} was not run: ${error.message}`);
      throw new ToolError(ctx.signal.aborted ? `${call.toolName} was cancelled` : `${call.toolName} failed: ${(error as Error).message}`);
    }
    const result = toResult(reply.result);
    if (reply.isError) return { ...result, isError: true };
    return result;
  };

  // ----- host URIs -----

  setSchemes(definitions: SchemeDefinition[]): string[] {
    this.schemes = new Map(definitions.map((d) => [d.scheme.toLowerCase(), { ...d, scheme: d.scheme.toLowerCase() }]));
    return [...this.schemes.keys()];
  }

  readonly uris: HostUris = {
    schemeOf: (path) => {
      const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(path);
      const scheme = match && this.schemes.get(match[1]!.toLowerCase());
      return scheme ? { scheme: scheme.scheme, writable: scheme.writable === true } : undefined;
    },
    read: async (url, signal) => {
      const reply = await this.uriRequest({ operation: "read", url }, signal);
      return { content: reply.content ?? "", contentType: reply.contentType, notes: reply.notes, immutable: reply.immutable } satisfies UriReadResult;
    },
    write: async (url, content, signal) => {
      await this.uriRequest({ operation: "write", url, content }, signal);
    },
  };

  private async uriRequest(request: { operation: "read" | "write"; url: string; content?: string }, signal: AbortSignal): Promise<UriReply> {
    const reply = await this.uriRequests.open((id) => this.send({ type: "host_uri_request", id, ...request }), {
      signal,
      cancel: (targetId) => this.send({ type: "host_uri_cancel", id: `uri_cancel_${++this.cancels}`, targetId }),
    });
    if (reply.isError) throw new Error(reply.error ?? reply.content ?? `the host could not ${request.operation} ${request.url}`);
    return reply;
  }

  // ----- extension UI -----

  readonly ui: HostUi = {
    select: async (title, options, opts) => {
      const reply = await this.dialog({ method: "select", title, options }, opts);
      return typeof reply?.value === "string" ? reply.value : undefined;
    },
    confirm: async (title, message, opts) => (await this.dialog({ method: "confirm", title, message }, opts))?.confirmed === true,
    input: async (title, placeholder, opts) => {
      const reply = await this.dialog({ method: "input", title, placeholder, ...(opts?.secret ? { secret: true } : {}) }, opts);
      return typeof reply?.value === "string" ? reply.value : undefined;
    },
    editor: async (title, prefill, opts) => {
      const reply = await this.dialog({ method: "editor", title, prefill }, opts);
      return typeof reply?.value === "string" ? reply.value : undefined;
    },
    notify: (message, notifyType) => this.notice({ method: "notify", message, notifyType }),
    setStatus: (statusKey, statusText) => this.notice({ method: "setStatus", statusKey, statusText }),
    setWidget: (widgetKey, widgetLines, widgetPlacement) => this.notice({ method: "setWidget", widgetKey, widgetLines, widgetPlacement }),
    setTitle: (title) => {
      if (this.emitTitle) this.notice({ method: "setTitle", title });
    },
    setEditorText: (text) => this.notice({ method: "set_editor_text", text }),
    openUrl: (request) => this.notice({ method: "open_url", ...request }),
  };

  /**
   * A dialog: resolves with the host's reply, or undefined when it was
   * cancelled, timed out (the host is then told to close it) or aborted.
   */
  private async dialog(request: Record<string, unknown>, opts: DialogOptions = {}): Promise<UiReply | undefined> {
    const timer = opts.timeout ? AbortSignal.timeout(opts.timeout) : undefined;
    const signal = timer && opts.signal ? AbortSignal.any([timer, opts.signal]) : (timer ?? opts.signal);
    try {
      const reply = await this.dialogs.open((id) => this.send({ type: "extension_ui_request", id, ...request, ...(opts.timeout ? { timeout: opts.timeout } : {}) }), {
        signal,
        cancel: (targetId) => this.notice({ method: "cancel", targetId }),
      });
      return reply.cancelled ? undefined : reply;
    } catch (error) {
      // nobody will ever answer: the caller must say so, not report a cancelled dialog
      if (error instanceof HostGone) throw error;
      return undefined;
    }
  }

  private notice(request: Record<string, unknown>): void {
    this.send({ type: "extension_ui_request", id: `ui_notice_${++this.notices}`, ...request });
  }

  // ----- replies from the host -----

  onToolUpdate(reply: ReplyOf<"host_tool_update">): void {
    this.toolCalls.update(reply.id, reply.partialResult);
  }

  onToolResult(reply: ToolReply): void {
    this.toolCalls.settle(reply.id, reply);
  }

  onUriResult(reply: UriReply): void {
    this.uriRequests.settle(reply.id, reply);
  }

  onUiResponse(reply: UiReply): void {
    this.dialogs.settle(reply.id, reply);
  }

  /** stdin closed: nothing pending can be answered any more. */
  close(): void {
    const gone = () => new HostGone(HOST_GONE);
    this.toolCalls.close(gone);
    this.uriRequests.close(gone);
    this.dialogs.close(gone);
  }
}

function toResult(result: { content?: unknown[]; details?: unknown } | undefined) {
  const content = (result?.content ?? []).filter(
    (c): c is TextContent | ImageContent => !!c && typeof c === "object" && ((c as TextContent).type === "text" || (c as ImageContent).type === "image"),
  );
  return { content: content.length > 0 ? content : [{ type: "text" as const, text: "(no output)" }], details: result?.details };
}
