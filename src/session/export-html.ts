/**
 * Renders a conversation as one self-contained HTML page (`export_html`): inline
 * CSS, images as data: URIs, no scripts and no external assets, so the file can
 * be mailed or archived and still open years later. Every string passes through
 * the redactor and the HTML escaper, in that order, so nothing is shown raw.
 */
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { AgentMessage, AssistantMessage, BashExecutionMessage, ImageContent, TextContent, ToolResultMessage } from "../core/messages.ts";
import { makeRedactor, redactDeep, type Redactor } from "./redact.ts";

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
  page.header(input);
  for (const message of input.messages) page.message(message);
  return page.finish(input.name ?? `Session ${input.sessionId}`);
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

  header(input: ExportInput): void {
    const rows: [string, string | undefined][] = [
      ["Session", input.sessionId],
      ["Directory", input.cwd],
      ["Model", input.model && `${input.model.provider}/${input.model.modelId}`],
      ["Messages", String(input.messages.length)],
      ["Exported", new Date().toISOString()],
    ];
    this.#parts.push(`<header><h1>${this.text(input.name ?? "Session")}</h1><dl>`);
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
        if (typeof message.content === "string") this.#paragraphs(message.content);
        else this.#contents(message.content, (text) => this.#paragraphs(text));
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
        this.#paragraphs(message.summary);
        break;
      case "branchSummary":
        this.#open("summary", "Branch summary");
        this.#paragraphs(message.summary);
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
      if (part.type === "text") this.#paragraphs(part.text);
      else if (part.type === "thinking") {
        const label = part.redacted ? "Thinking (redacted by the provider)" : "Thinking";
        this.#parts.push(`<details class="thinking"><summary>${label}</summary><pre>${this.text(part.thinking)}</pre></details>`);
      } else {
        const args = JSON.stringify(redactDeep(part.arguments, this.redact), null, 2);
        this.#parts.push(`<div class="tool-call"><div class="tool-name">${this.text(part.name)}</div><pre>${escapeHtml(args)}</pre></div>`);
      }
    }
    if (failed) {
      const reason = message.errorMessage ?? (message.stopReason === "aborted" ? "Aborted" : "Error");
      this.#parts.push(`<div class="error-text">${this.text(reason)}</div>`);
    }
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
      const kind = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "ctx";
      this.#parts.push(`<span class="${kind}">${this.text(line)}</span>\n`);
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

  #paragraphs(text: string): void {
    for (const paragraph of text.split(/\n{2,}/)) {
      if (paragraph.trim() !== "") this.#parts.push(`<p>${this.text(paragraph)}</p>`);
    }
  }
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
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
p{white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0}
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
img{max-width:100%;border-radius:4px;margin:6px 0;display:block}
`;
