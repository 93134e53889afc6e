/**
 * Bun's YAML parser stands in for the `yaml` package only where both give the
 * same value: every text here is parsed both ways; where the fast path
 * answers it must equal the package's value, and texts the package rejects
 * (a key twice, two documents) or could read differently never take it.
 */
import { expect, test } from "bun:test";
import { parseDocument } from "yaml";
import { fastYaml } from "../../src/config/fast-yaml.ts";

const TYPICAL = `# nova config
defaultModel: local/qwen
providers:
  local:
    api: openai-chat
    baseUrl: http://127.0.0.1:9/v1 # a comment
    apiKey: \${LOCAL_KEY}
    headers:
      X-Title: "nova: tests"
    models:
      - id: qwen
        contextWindow: 32768
        input: [text, image]
      - id: 'other'
        reasoning: true
permissions:
  bash:
    allow: ["git status", "ls *"]
    deny:
      - rm -rf *
compaction:
  enabled: false
`;

const ANSWERED = [
  TYPICAL,
  "a: yes\nb: on\nc: 0o17\nd: 017\ne: 1_000\nf: ~\nh: 0x1F\ni: 1e3\nj: -.5\nk: 12:30\nl: 2001-12-14\n",
  "a: null\nb: Null\nd: True\ne: FALSE\n",
  "a: 'it''s'\nb: \"\\u00e9\\n\"\nc: |\n  x\n  y\nd: >\n  p\n  q\n",
  "- a\n-\n",
  "list:\n  - name: a\n    v: 1\n  - name: b\n    v: 2\n",
  "",
  "#only a comment\n",
  "a: 1 # c\n",
];

/** the package would reject these, or they are outside what the fast path vouches for */
const REFUSED = [
  "a: 1\na: 2\n",
  "providers:\n  p:\n    api: x\n    api: y\n",
  "models:\n  - id: a\n    id: b\n",
  "a: 1\n---\nb: 2\n",
  "x: {a: 1, a: 2}\n",
  "base: &b {x: 1}\nother:\n  <<: *b\n",
  "%YAML 1.2\n---\na: 1\n",
  "a:\n\t- b\n",
];

function viaPackage(text: string): { value?: unknown; error?: string } {
  const doc = parseDocument(text, { prettyErrors: false });
  return doc.errors.length > 0 ? { error: doc.errors[0]!.message } : { value: doc.toJS() };
}

test("where the fast path answers, it gives the yaml package's value", () => {
  for (const text of ANSWERED) {
    const fast = fastYaml(text);
    expect(fast, text).toBeDefined();
    expect(fast!.value).toEqual(viaPackage(text).value);
  }
});

test("a key given twice, a second document, flow mappings, merge keys, directives and tab indentation go to the yaml package", () => {
  for (const text of REFUSED) expect(fastYaml(text), text).toBeUndefined();
  // the package itself rejects the duplicates and the second document
  for (const text of REFUSED.slice(0, 4)) expect(viaPackage(text).error).toBeDefined();
});

test("keys at the same indent in different sequence items or mappings are not duplicates", () => {
  const text = "a:\n  id: 1\nb:\n  id: 2\nlist:\n  - id: 3\n  - id: 4\n";
  expect(fastYaml(text)?.value).toEqual(viaPackage(text).value);
});
