/**
 * Whether a bash command line only reads (plan mode runs those and nothing
 * else). Stricter than the approval check: every simple command must be a
 * known reader with no option that writes, and no redirection may write a
 * file. What the parser cannot follow counts as writing.
 */
import { parseCommandLine, type SimpleCommand } from "./shell-words.ts";

const READERS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ls",
  "tree",
  "pwd",
  "echo",
  "printf",
  "which",
  "type",
  "file",
  "stat",
  "du",
  "df",
  "diff",
  "cmp",
  "sort",
  "uniq",
  "cut",
  "tr",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "date",
  "whoami",
  "uname",
  "id",
  "hostname",
  "true",
  "false",
  "test",
  "[",
  "cd",
  "nl",
  "od",
  "xxd",
  "hexdump",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "jq",
  "column",
  "comm",
  "fold",
  "rev",
  "seq",
  "sleep",
  "printenv",
  "tac",
  "strings",
  "sed",
  "find",
]);
const GIT_READERS = new Set(["status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "blame", "grep", "describe", "shortlog", "cat-file"]);
/** options that make an otherwise reading program write or run something */
const WRITING_OPTIONS: Record<string, RegExp> = {
  sed: /^(-i|--in-place)|^-[a-zA-Z]*i/,
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  sort: /^(-o|--output)/,
  tree: /^-o$/,
};

export function readOnlyCommand(command: string): { readOnly: true } | { readOnly: false; reason: string } {
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return { readOnly: false, reason: "the command line could not be parsed" };
  if (parsed.features.length > 0) return { readOnly: false, reason: `it uses a shell ${parsed.features[0]}` };
  for (const cmd of parsed.commands) {
    const reason = writes(cmd);
    if (reason) return { readOnly: false, reason };
  }
  return { readOnly: true };
}

function writes(cmd: SimpleCommand): string | undefined {
  for (const r of cmd.redirects) {
    if (!r.op.includes(">")) continue;
    if (r.op.endsWith(">&") && /^(\d+|-)$/.test(r.target)) continue;
    if (!r.dynamic && r.target === "/dev/null") continue;
    return `it writes to ${r.target}`;
  }
  let at = 0;
  while (at < cmd.words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(cmd.words[at]!) && !cmd.quoted[at]) at++;
  const name = cmd.words[at];
  if (name === undefined) return at > 0 ? "it sets shell variables" : undefined;
  if (cmd.dynamic[at] || cmd.glob[at]) return `the command name ${name} is only known when it runs`;
  const args = cmd.words.slice(at + 1);
  if (name === "git") {
    const sub = args.find((a) => !a.startsWith("-"));
    return sub && GIT_READERS.has(sub) && !args.includes("--output") ? undefined : `git ${sub ?? ""} may change the repository`.replace("  ", " ");
  }
  if (!READERS.has(name)) return `${name} is not known to only read`;
  const writing = WRITING_OPTIONS[name];
  const bad = writing ? args.find((a) => writing.test(a)) : undefined;
  return bad ? `${name} ${bad} writes or runs commands` : undefined;
}
