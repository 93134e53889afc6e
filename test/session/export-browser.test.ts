/**
 * export_html in a real browser: a scripted session (markdown answer, an edit
 * with its diff, a written file) is exported through the process and opened
 * in headless Chromium (Debian's package, installed by .ci/run). The page
 * logs nothing to the console, and the DOM Chromium built has the headings,
 * lists, highlighted code and diff rows as elements. The screenshot is kept
 * in dist/test-artifacts/ for a person to look at.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promptAndSettle, scenario } from "../support/scenario.ts";
import { ROOT, tempDir } from "../support/nova.ts";

const ARTIFACTS = join(ROOT, "dist", "test-artifacts");

async function chromium(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const profile = tempDir("nova-chromium-");
  const proc = Bun.spawn(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", `--user-data-dir=${profile}`, ...args], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { out, err, code };
}

test("the exported page opens in headless Chromium without console messages, its markdown, code and diff as elements", async () => {
  const s = await scenario();
  try {
    writeFileSync(join(s.cwd, "a.ts"), "export const a = 1;\nexport const b = 2;\n");
    s.server.enqueue(
      s.f.toolCalls([{ id: "e1", name: "edit", args: { path: "a.ts", oldText: "export const a = 1;", newText: "export const a = 42;" } }]),
      s.f.toolCalls([{ id: "w1", name: "write", args: { path: "c.py", content: "def c():\n    return 'see'  # done\n" } }]),
      s.f.text("## Changes\n\n- **a** is now `42`\n- c.py is new\n\n```ts\nconst a = 42; // the answer\n```\n"),
    );
    await promptAndSettle(s.nova, "Set a to 42 and add c.py");
    const path = join(s.cwd, "session.html");
    const exported = await s.nova.request({ type: "export_html", outputPath: path });
    expect(exported).toMatchObject({ success: true, data: { path } });

    const dom = await chromium(["--dump-dom", `file://${path}`]);
    expect(dom.code).toBe(0);
    expect(dom.err.match(/CONSOLE[^\n]*/g) ?? []).toEqual([]);
    expect(dom.out).toContain("<title>Set a to 42 and add c.py</title>");
    expect(dom.out).toContain("<h2>Changes</h2>");
    expect(dom.out).toMatch(/<li><strong>a<\/strong> is now <code>42<\/code><\/li>/);
    expect(dom.out).toContain('<pre class="code"><code class="language-ts"><span class="tok-k">const</span>');
    expect(dom.out).toContain('<dt>content</dt><dd><pre class="code"><code class="language-py"><span class="tok-k">def</span>');
    expect(dom.out).toContain(
      '<span class="hunk">@@ -1,2 +1,2 @@</span><span class="del">-export const a = 1;</span><span class="add">+export const a = 42;</span><span class="ctx"> export const b = 2;</span>',
    );

    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, "export-html.png");
    const screenshot = await chromium([`--screenshot=${shot}`, "--window-size=1000,1400", `file://${path}`]);
    expect(screenshot.code).toBe(0);
    const png = new Uint8Array(await Bun.file(shot).arrayBuffer());
    expect([...png.slice(1, 4)].map((c) => String.fromCharCode(c)).join("")).toBe("PNG");
    expect(png.length).toBeGreaterThan(10_000);
  } finally {
    await s.close();
  }
}, 60_000);
