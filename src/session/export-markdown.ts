/**
 * Markdown and code for the HTML export: Bun's built-in markdown renderer
 * with raw HTML shown as text, links kept only to http(s) and mail, images
 * only as data: URIs (the page loads nothing), and a small highlighter for
 * code blocks that marks comments, strings, numbers and keywords with
 * classes the page's inline CSS colours. No scripts.
 */

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!);
}

/** Markdown (already redacted) as HTML; code blocks highlighted by their fence's language. */
export function markdownHtml(text: string): string {
  const html = Bun.markdown.html(text, { noHtmlBlocks: true, noHtmlSpans: true, tagFilter: true });
  return html
    .replace(/<pre><code(?: class="language-([\w+#.-]+)")?>([\s\S]*?)<\/code><\/pre>/g, (_, lang: string | undefined, code: string) => codeBlock(unescapeHtml(code), lang))
    .replace(/<a href="([^"]*)"/g, (whole, href: string) => (/^(https?:|mailto:)/i.test(unescapeHtml(href)) ? whole : "<a"))
    .replace(/<img src="([^"]*)" alt="([^"]*)" \/>/g, (whole, src: string, alt: string) =>
      /^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/]*={0,2}$/.test(src) ? whole : `[image: ${alt}]`,
    );
}

/** A code block in the page's monospace font, highlighted; `lang` is a fence language or a file extension. */
export function codeBlock(code: string, lang?: string): string {
  const language = lang ? lang.toLowerCase() : "";
  const attr = language ? ` class="language-${escapeHtml(language)}"` : "";
  return `<pre class="code"><code${attr}>${highlight(code.replace(/\n$/, ""), language)}</code></pre>`;
}

const KEYWORDS = new Set(
  (
    "abstract as async await break case catch class const continue def default defer del delete do elif else enum export extends false " +
    "final finally fn for from func function go if impl implements import in instanceof interface is lambda let match mod module mut " +
    "new nil none not null of or and package pass private protected pub public raise readonly return self static struct super switch " +
    "this throw trait true try type typeof undefined use var void while with yield True False None fi then esac done local echo"
  ).split(" "),
);

const HASH_COMMENTS = new Set(["py", "python", "sh", "bash", "shell", "zsh", "yaml", "yml", "toml", "rb", "ruby", "r", "makefile", "dockerfile"]);

/**
 * One pass over the code: the first token that matches at each position wins.
 * Anything not a token is escaped as is, so the text never changes, only its spans.
 */
function highlight(code: string, language: string): string {
  const comment = HASH_COMMENTS.has(language) ? String.raw`#[^\n]*` : String.raw`\/\/[^\n]*|\/\*[\s\S]*?\*\/`;
  const token = new RegExp(`(${comment})|("(?:[^"\\\\\\n]|\\\\.)*"|'(?:[^'\\\\\\n]|\\\\.)*'|\`(?:[^\`\\\\]|\\\\.)*\`)|(\\b\\d[\\d_.]*(?:e[+-]?\\d+)?\\b)|([A-Za-z_$][\\w$]*)`, "g");
  let out = "";
  let last = 0;
  for (const match of code.matchAll(token)) {
    const [text, isComment, isString, isNumber, word] = match;
    const kind = isComment ? "c" : isString ? "s" : isNumber ? "n" : word && KEYWORDS.has(word) ? "k" : undefined;
    if (!kind) continue;
    out += escapeHtml(code.slice(last, match.index)) + `<span class="tok-${kind}">${escapeHtml(text)}</span>`;
    last = match.index + text.length;
  }
  return out + escapeHtml(code.slice(last));
}

/** The fence language for a file, from its extension (`src/a.ts` → `ts`). */
export function languageOf(path: unknown): string | undefined {
  if (typeof path !== "string") return undefined;
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1];
  return ext?.toLowerCase();
}
