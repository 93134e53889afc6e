/**
 * Renders a conversation as one self-contained HTML page (`export_html`): inline
 * CSS, images as data: URIs, no scripts and no external assets, so the file can
 * be mailed or archived and still open years later. Messages' markdown is
 * rendered (export-markdown.ts), code highlighted, tool arguments shown as
 * fields with file contents as code blocks. Every string passes through the
 * redactor first and then the HTML escaper or the markdown renderer (which
 * shows raw HTML as text), so nothing is shown raw.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { AgentMessage, AssistantMessage, BashExecutionMessage, ImageContent, TextContent, ToolResultMessage } from "../core/messages.ts";
import { makeRedactor, redactDeep, type Redactor } from "./redact.ts";
import { codeBlock, escapeHtml, languageOf, markdownHtml } from "./export-markdown.ts";

export interface ExportInput {
  messages: readonly AgentMessage[];
  sessionId: string;
  name?: string;
  cwd?: string;
  model?: { provider: string; modelId: string };
}

export interface ExportOptions {
  /** exact values (API keys, tokens) replaced by `[redacted]` wherever they appear */
  secrets: readonly string[];
}

export function exportHtml(input: ExportInput, options: ExportOptions): string {
  const page = new Page(makeRedactor(options.secrets));
  const title = titleOf(input);
  page.header(input, title);
  for (const message of input.messages) page.message(message);
  return page.finish(title);
}

/** The session's name, else its first prompt's first line (shortened), else its id. */
function titleOf(input: ExportInput): string {
  if (input.name?.trim()) return input.name.trim();
  for (const message of input.messages) {
    if (message.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join(" ");
    const line = text.trim().split("\n", 1)[0]!.trim();
    if (line) return line.length > 80 ? `${line.slice(0, 77)}…` : line;
  }
  return `Session ${input.sessionId}`;
}

/** Writes the page, creating the folder it goes in. */
export async function writeExport(path: string, html: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await Bun.write(path, html);
}

class Page {
  readonly #parts: string[] = [];

  constructor(readonly redact: Redactor) {}

  /** Redacted, then escaped: the only way text reaches the page. */
  text(value: string): string {
    return escapeHtml(this.redact(value));
  }

  header(input: ExportInput, title: string): void {
    const rows: [string, string | undefined][] = [
      ["Session", input.sessionId],
      ["Directory", input.cwd],
      ["Model", input.model && `${input.model.provider}/${input.model.modelId}`],
      ["Messages", String(input.messages.length)],
      ["Exported", new Date().toISOString()],
    ];
    this.#parts.push(`<header><h1>${this.text(title)}</h1><dl>`);
    for (const [label, value] of rows) {
      if (value !== undefined) this.#parts.push(`<dt>${label}</dt><dd>${this.text(value)}</dd>`);
    }
    this.#parts.push("</dl></header><main>");
  }

  message(message: AgentMessage): void {
    switch (message.role) {
      case "user":
      case "custom":
        this.#open("user", message.role === "user" ? "User" : `Context · ${message.customType}`);
        if (typeof message.content === "string") this.#markdown(message.content);
        else this.#contents(message.content, (text) => this.#markdown(text));
        break;
      case "assistant":
        this.#assistant(message);
        break;
      case "toolResult":
        this.#toolResult(message);
        break;
      case "bashExecution":
        this.#bash(message);
        break;
      case "compactionSummary":
        this.#open("summary", `Compaction summary · ${message.tokensBefore} tokens before`);
        this.#markdown(message.summary);
        break;
      case "branchSummary":
        this.#open("summary", "Branch summary");
        this.#markdown(message.summary);
        break;
    }
    this.#parts.push("</section>");
  }

  finish(title: string): string {
    this.#parts.push("</main>");
    return [
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${this.text(title)}</title><style>${STYLE}</style></head><body>`,
      ...this.#parts,
      "</body></html>\n",
    ].join("");
  }

  #assistant(message: AssistantMessage): void {
    const failed = message.stopReason === "error" || message.stopReason === "aborted";
    this.#open(failed ? "assistant error" : "assistant", `Assistant · ${message.provider}/${message.model}`);
    for (const part of message.content) {
      if (part.type === "text") this.#markdown(part.text);
      else if (part.type === "thinking") {
        const label = part.redacted ? "Thinking (redacted by the provider)" : "Thinking";
        this.#parts.push(`<details class="thinking"><summary>${label}</summary><pre>${this.text(part.thinking)}</pre></details>`);
      } else this.#toolCall(part.name, redactDeep(part.arguments, this.redact) as Record<string, unknown>);
    }
    if (failed) {
      const reason = message.errorMessage ?? (message.stopReason === "aborted" ? "Aborted" : "Error");
      this.#parts.push(`<div class="error-text">${this.text(reason)}</div>`);
    }
  }

  /** Each argument as a field: multi-line text (a file's content, an edit's old and new text) as a code block, highlighted by the path's language. */
  #toolCall(name: string, args: Record<string, unknown>): void {
    const lang = languageOf(args.path ?? args.file_path);
    this.#parts.push(`<div class="tool-call"><div class="tool-name">${this.text(name)}</div><dl class="args">`);
    for (const [key, value] of Object.entries(args)) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      const shown =
        typeof value === "string" && (value.includes("\n") || value.length > 100) ? codeBlock(value, key === "command" ? "sh" : lang) : `<code>${escapeHtml(text)}</code>`;
      this.#parts.push(`<dt>${escapeHtml(key)}</dt><dd>${shown}</dd>`);
    }
    this.#parts.push("</dl></div>");
  }

  #toolResult(message: ToolResultMessage): void {
    this.#open(message.isError ? "tool-result error" : "tool-result", `Result · ${message.toolName}`);
    this.#contents(message.content, (text) => this.#parts.push(`<pre>${this.text(text)}</pre>`));
    const diff = (message.details as { diff?: unknown } | undefined)?.diff;
    if (typeof diff === "string") this.#diff(diff);
  }

  #bash(message: BashExecutionMessage): void {
    const failed = message.cancelled || (message.exitCode !== undefined && message.exitCode !== 0);
    this.#open(failed ? "bash error" : "bash", "Shell");
    this.#parts.push(`<pre class="command">$ ${this.text(message.command)}</pre><pre>${this.text(message.output)}</pre>`);
    const notes = [
      message.exitCode !== undefined ? `exit code ${message.exitCode}` : undefined,
      message.cancelled ? "cancelled" : undefined,
      message.truncated ? "output truncated" : undefined,
    ].filter((note) => note !== undefined);
    if (notes.length > 0) this.#parts.push(`<div class="meta">${this.text(notes.join(" · "))}</div>`);
  }

  #diff(diff: string): void {
    this.#parts.push('<pre class="diff">');
    for (const line of diff.split("\n")) {
      const kind = /^(\+\+\+ |--- |@@)/.test(line) ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "ctx";
      // block spans: a newline between them would show as an empty line
      this.#parts.push(`<span class="${kind}">${this.text(line) || " "}</span>`);
    }
    this.#parts.push("</pre>");
  }

  #contents(parts: readonly (TextContent | ImageContent)[], renderText: (text: string) => void): void {
    for (const part of parts) {
      if (part.type === "text") renderText(part.text);
      else this.#image(part);
    }
  }

  /** Only well-formed base64 of an image type is inlined; anything else could break out of the attribute. */
  #image(image: ImageContent): void {
    if (/^image\/[A-Za-z0-9.+-]+$/.test(image.mimeType) && /^[A-Za-z0-9+/]*={0,2}$/.test(image.data)) {
      this.#parts.push(`<img alt="image" src="data:${image.mimeType};base64,${image.data}">`);
    } else {
      this.#parts.push(`<div class="meta">[image omitted: not valid base64 image data]</div>`);
    }
  }

  #open(kind: string, role: string): void {
    this.#parts.push(`<section class="message ${kind}"><div class="role">${this.text(role)}</div>`);
  }

  /** Redacted, then rendered: raw HTML in it shows as text. */
  #markdown(text: string): void {
    if (text.trim() !== "") this.#parts.push(`<div class="md">${markdownHtml(this.redact(text))}</div>`);
  }
}

const STYLE = `
:root{--bg:#fafaf9;--fg:#1c1917;--muted:#78716c;--card:#fff;--border:#e7e5e4;--user:#eff6ff;--tool:#f5f5f4;
--error:#fef2f2;--error-fg:#b91c1c;--add:#dcfce7;--add-fg:#166534;--del:#fee2e2;--del-fg:#991b1b;--accent:#2563eb}
@media (prefers-color-scheme:dark){:root{--bg:#0c0a09;--fg:#e7e5e4;--muted:#a8a29e;--card:#1c1917;--border:#292524;
--user:#172554;--tool:#171717;--error:#450a0a;--error-fg:#fca5a5;--add:#052e16;--add-fg:#86efac;--del:#450a0a;
--del-fg:#fca5a5;--accent:#60a5fa}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif}
header,main{max-width:900px;margin:0 auto;padding:16px}
header h1{margin:8px 0;font-size:22px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0;color:var(--muted);font-size:13px}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.message{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:10px 14px;margin:12px 0}
.message.user{background:var(--user)}
.message.tool-result,.message.bash{background:var(--tool)}
.message.error{background:var(--error);border-color:var(--error-fg)}
.role{font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin-bottom:4px}
p{overflow-wrap:anywhere;margin:6px 0}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}
.md code,dd code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--tool);padding:1px 4px;border-radius:3px}
.md table{border-collapse:collapse}.md th,.md td{border:1px solid var(--border);padding:3px 8px}
.md blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--border);color:var(--muted)}
pre.code{background:var(--tool);border:1px solid var(--border);border-radius:6px;padding:8px 10px;white-space:pre;overflow-x:auto}
pre.code code{background:none;padding:0}
.tok-c{color:var(--muted);font-style:italic}.tok-s{color:#a31515}.tok-n{color:#098658}.tok-k{color:#0000c0;font-weight:600}
@media (prefers-color-scheme:dark){.tok-s{color:#ce9178}.tok-n{color:#b5cea8}.tok-k{color:#569cd6}}
dl.args{grid-template-columns:max-content minmax(0,1fr);color:var(--fg);font-size:13px;margin-top:4px}
dl.args dt{color:var(--muted);font-family:ui-monospace,Menlo,monospace}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:6px 0}
.tool-call{border-left:3px solid var(--accent);padding-left:10px;margin:8px 0}
.tool-name{font-family:ui-monospace,Menlo,monospace;font-weight:600;color:var(--accent)}
details.thinking summary{cursor:pointer;color:var(--muted);font-style:italic}
details.thinking pre{color:var(--muted)}
.command{font-weight:600}
.meta{font-size:12px;color:var(--muted)}
.error-text{color:var(--error-fg);font-weight:600;white-space:pre-wrap}
.diff span{display:block}
.diff .add{background:var(--add);color:var(--add-fg)}
.diff .del{background:var(--del);color:var(--del-fg)}
.diff .hunk{color:var(--muted)}
img{max-width:100%;border-radius:4px;margin:6px 0;display:block}
`;
