import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "../../src/core/messages.ts";
import { exportHtml, writeExport } from "../../src/session/export-html.ts";
import { assistant, toolCall, toolResult, user } from "./fixtures.ts";

const SECRET = "corp-token-93f1c0de";
const ANTHROPIC_KEY = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function conversation(): AgentMessage[] {
  const edit = toolCall("call_edit", "edit", { path: "src/a.ts", token: SECRET });
  const bad = toolCall("call_bad", "read", { path: "missing.txt" });
  return [
    {
      role: "user",
      content: [
        { type: "text", text: `Use ${ANTHROPIC_KEY} and fix <b>this</b> & that` },
        { type: "image", mimeType: "image/png", data: PNG },
        { type: "image", mimeType: 'image/png"><script>', data: "x" },
      ],
      timestamp: 1,
    },
    assistant([{ type: "thinking", thinking: "considering the edit" }, { type: "text", text: "First paragraph.\n\nSecond paragraph." }, edit, bad]),
    toolResult(edit, "Edited src/a.ts", { details: { diff: "-1 const a = 1;\n+1 const a = 2;\n 2 export { a };" } }),
    toolResult(bad, "ENOENT: missing.txt", { isError: true }),
    { role: "bashExecution", command: `curl -H 'x: ${SECRET}' host`, output: "boom", exitCode: 7, cancelled: false, truncated: true, timestamp: 2 },
    { role: "compactionSummary", summary: "Earlier we set things up.", tokensBefore: 5000, timestamp: 3 },
    assistant([{ type: "text", text: "partial" }], { stopReason: "error", errorMessage: "HTTP 529 overloaded" }),
    user("thanks, abc is fine; the short key Q7 is not"),
  ];
}

interface Block {
  classes: string;
  text: string;
}

interface Parsed {
  sections: Block[];
  toolNames: Block[];
  diffLines: Block[];
  images: string[];
  details: number;
}

/** Collects each matched element's class and text (descendants included). */
function collect(into: Block[]): HTMLRewriterTypes.HTMLRewriterElementContentHandlers {
  return {
    element(element) {
      into.push({ classes: element.getAttribute("class") ?? "", text: "" });
    },
    text(chunk) {
      const block = into.at(-1);
      if (block) block.text += chunk.text;
    },
  };
}

/** Walks the page with Bun's HTMLRewriter, collecting what a reader would see. */
async function parse(html: string): Promise<Parsed> {
  const parsed: Parsed = { sections: [], toolNames: [], diffLines: [], images: [], details: 0 };
  await new HTMLRewriter()
    .on("section", collect(parsed.sections))
    .on(".tool-name", collect(parsed.toolNames))
    .on(".diff span", collect(parsed.diffLines))
    .on("img", { element: (element) => void parsed.images.push(element.getAttribute("src") ?? "") })
    .on("details", { element: () => void parsed.details++ })
    .transform(new Response(html))
    .text();
  return parsed;
}

describe("exportHtml", () => {
  const html = exportHtml(
    { messages: conversation(), sessionId: "sess-1", name: "Fixing <things>", cwd: "/work/app", model: { provider: "anthropic", modelId: "claude-test" } },
    { secrets: [SECRET, "Q7"] },
  );

  test("renders every message in order with its kind", async () => {
    const { sections } = await parse(html);
    expect(sections.map((section) => section.classes)).toEqual([
      "message user",
      "message assistant",
      "message tool-result",
      "message tool-result error",
      "message bash error",
      "message summary",
      "message assistant error",
      "message user",
    ]);
    expect(sections[0]!.text).toContain("fix &lt;b&gt;this&lt;/b&gt; &amp; that");
    expect(sections[1]!.text).toContain("Second paragraph.");
    expect(sections[3]!.text).toContain("ENOENT: missing.txt");
    expect(sections[4]!.text).toContain("exit code 7 · output truncated");
    expect(sections[5]!.text).toContain("5000 tokens before");
    expect(sections[6]!.text).toContain("HTTP 529 overloaded");
    expect(html).toContain("<p>First paragraph.</p>\n<p>Second paragraph.</p>");
  });

  test("shows thinking collapsed, tool calls with their arguments, images inline and diffs coloured", async () => {
    const parsed = await parse(html);
    expect(parsed.details).toBe(1);
    expect(html).not.toMatch(/<details[^>]*open/);
    expect(parsed.toolNames.map((block) => block.text)).toEqual(["edit", "read"]);
    expect(html).toContain("<dt>path</dt><dd><code>src/a.ts</code></dd>");
    // one span per diff line and nothing between them: no empty lines
    expect(html).toMatch(/<pre class="diff">(<span class="(add|del|ctx)">[^<\n]*<\/span>)+<\/pre>/);
    expect(parsed.images).toEqual([`data:image/png;base64,${PNG}`]);
    expect(html).toContain("[image omitted: not valid base64 image data]");
    expect(parsed.diffLines).toEqual([
      { classes: "del", text: "-1 const a = 1;" },
      { classes: "add", text: "+1 const a = 2;" },
      { classes: "ctx", text: " 2 export { a };" },
    ]);
  });

  test("redacts given secrets and key shapes everywhere and escapes all text", () => {
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(ANTHROPIC_KEY);
    expect(html).not.toContain("sk-ant-");
    expect(html.match(/\[redacted\]/g)?.length).toBe(4);
    expect(html).toContain("thanks, abc is fine");
    expect(html).not.toContain("Q7");
    expect(html).toContain("<title>Fixing &lt;things&gt;</title>");
    expect(html).not.toContain("<script");
  });

  test("is self-contained: no scripts, stylesheets or remote assets", () => {
    expect(html).toStartWith("<!DOCTYPE html>");
    expect(html).not.toMatch(/<script|<link|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).toContain("prefers-color-scheme:dark");
  });
});

describe("writeExport", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "nova-export-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  test("creates the parent folder and writes the page", async () => {
    const path = join(dir, "nested", "deeper", "session.html");
    await writeExport(path, "<!DOCTYPE html><p>x</p>");
    expect(readFileSync(path, "utf8")).toBe("<!DOCTYPE html><p>x</p>");
  });
});

describe("exportHtml's markdown, code and title", () => {
  const write = {
    type: "toolCall" as const,
    id: "w1",
    name: "write",
    arguments: { path: "src/b.ts", content: 'export const b = "two";\n// done\n' },
  };
  const html = exportHtml(
    {
      messages: [
        user("Please **refactor** the parser\nand more"),
        assistant([{ type: "text", text: "## Plan\n\n- one\n- two\n\n```ts\nconst x = 1; // note\n```\n\n<img src=x onerror=alert(1)> [bad](javascript:alert(1))" }, write]),
      ],
      sessionId: "s2",
    },
    { secrets: [] },
  );

  test("messages' markdown renders as elements, raw HTML as text, unsafe links without href", () => {
    expect(html).toContain("<strong>refactor</strong>");
    expect(html).toContain("<h2>Plan</h2>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("javascript:");
  });

  test("code blocks are highlighted, and a written file's content is a code block in the path's language", () => {
    expect(html).toContain(
      '<pre class="code"><code class="language-ts"><span class="tok-k">const</span> x = <span class="tok-n">1</span>; <span class="tok-c">// note</span></code></pre>',
    );
    expect(html).toContain('<dt>content</dt><dd><pre class="code"><code class="language-ts"><span class="tok-k">export</span>');
    expect(html).toContain('<span class="tok-s">&quot;two&quot;</span>');
  });

  test("an unnamed session is titled by its first prompt's first line", () => {
    expect(html).toContain("<title>Please **refactor** the parser</title>");
    expect(html).toContain("<h1>Please **refactor** the parser</h1>");
  });
});
