/**
 * What one simple command does, for the permission check: which wrappers run
 * another command (and with which words), which programs write, delete,
 * upload or run code that cannot be read here. Each answer is a reason to
 * ask, or nothing. Paths are resolved the way the kernel will see them:
 * `~`, every directory the line may have `cd`-ed to, and symlinks that
 * already exist (a link in the cwd that points out counts as outside).
 */
import { realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { hasAny, parseOptions, valuesOf, type ParsedOptions } from "./options.ts";

/** The session cwd, and every directory the line may be in by now (undefined: unknown). */
export interface Place {
  root: string;
  heres: (string | undefined)[];
}

/**
 * A reason to ask. An escaping one reaches beyond the working folder (a
 * write or delete outside it, a remote, an upload): an OS sandbox confined
 * to the workspace would not contain it, so it is asked even there.
 */
export type Reason = string | { text: string; escapes: true };

export const escaping = (text: string): Reason => ({ text, escapes: true });

export interface Wrapped {
  /** words to drop after the wrapper's own name to reach the wrapped command; undefined when nothing is wrapped */
  skip?: number;
  /** a command string the wrapper will run */
  script?: string;
  reason?: Reason;
}

/** When nova started: a program or script changed after this was written by this session (or alongside it). */
const SESSION_START_MS = Date.now() - performance.now();

/** Variables whose value changes what later commands run or where: assigning them is asked about. */
export const STEERING_VARS =
  /^(PATH|CDPATH|BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|IFS|SHELLOPTS|BASHOPTS|GLOBIGNORE|LD_[A-Z_]+|DYLD_[A-Z_]+|GIT_[A-Z_]+|PYTHON(PATH|STARTUP|HOME)|NODE_OPTIONS|PERL5OPT|PERL5LIB|RUBYOPT|HOME|EDITOR|VISUAL|PAGER|SHELL|BASH_LOADABLES_PATH|HISTFILE)$/;

const SAFE_DEVICES = /^\/dev\/(null|stdout|stderr|tty|zero|full|u?random)$/;
const SYSTEM_DIRS = ["/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/usr/lib/git-core"];
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh", "tcsh", "csh", "yash", "posh"]);
const PRIVILEGE = new Set(["sudo", "su", "doas", "pkexec", "run0", "runuser"]);
const POWER = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const DISK_TOOLS =
  /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs|mkexfatfs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard|badblocks|tune2fs|e2fsck|fsck(\..+)?|losetup|cryptsetup|mkfs)$/;
/** Run a command in another context the check cannot see into. */
const ELSEWHERE = new Set(["chroot", "unshare", "nsenter", "firejail", "systemd-run", "sg", "newgrp", "parallel", "at", "batch", "crontab", "ssh", "expect"]);
/** Programs that only read: `xargs` and `find -exec` may run them on files only known at run time. */
const READ_ONLY = new Set([
  "cat",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "head",
  "tail",
  "wc",
  "ls",
  "stat",
  "file",
  "echo",
  "printf",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "du",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "diff",
  "cmp",
  "uniq",
  "cut",
  "tr",
  "test",
  "[",
  "true",
  "false",
  "od",
  "xxd",
  "hexdump",
  "strings",
  "nl",
  "column",
  "jq",
]);
/** Shell builtins that only touch the shell itself; anything else must be a program. */
const HARMLESS_BUILTINS = new Set([
  "echo",
  "printf",
  "test",
  "[",
  "[[",
  "]]",
  "true",
  "false",
  ":",
  "read",
  "set",
  "unset",
  "shift",
  "exit",
  "return",
  "break",
  "continue",
  "wait",
  "jobs",
  "fg",
  "bg",
  "pwd",
  "dirs",
  "type",
  "umask",
  "ulimit",
  "getopts",
  "shopt",
  "let",
  "local",
  "declare",
  "typeset",
  "export",
  "readonly",
  "unalias",
  "times",
  "caller",
  "help",
  "history",
  "logout",
  "suspend",
  "disown",
  "compgen",
  "complete",
  "compopt",
  "fc",
]);
const DECLARERS = new Set(["declare", "typeset", "local", "export", "readonly"]);
const INTERPRETERS: Record<string, { inline: string; longInline?: string[]; value?: string; longValue?: string[] }> = {
  python: { inline: "c", value: "mWXQ", longValue: [] },
  perl: { inline: "eE", value: "IMmxdD", longValue: [] },
  ruby: { inline: "e", value: "IrCE", longValue: [] },
  node: { inline: "ep", longInline: ["eval", "print"], value: "r", longValue: ["require", "import", "loader", "input-type"] },
  bun: { inline: "ep", longInline: ["eval", "print"], value: "r", longValue: ["preload", "cwd", "config"] },
  deno: { inline: "", longInline: ["eval"], value: "", longValue: [] },
  php: { inline: "rRBE", value: "cdf", longValue: [] },
  lua: { inline: "e", value: "l", longValue: [] },
  Rscript: { inline: "e", longInline: ["e"], value: "", longValue: [] },
  tclsh: { inline: "", value: "", longValue: [] },
  osascript: { inline: "e", value: "", longValue: [] },
  pwsh: { inline: "c", longInline: ["command", "c"], value: "f", longValue: ["file"] },
};

/**
 * Wrappers: programs that run another command. `skip` says where the wrapped
 * command starts; `script` is a string they will run as shell code.
 */
export function wrapperOf(name: string, args: string[], place: Place): Wrapped | undefined {
  switch (name) {
    case "sudo":
    case "doas":
    case "run0": {
      const p = parseOptions(args, {
        flags: "AbEeHiKklnPSsV",
        withValue: "CDghpRrtTUu",
        long: ["user=", "group=", "chdir=", "host=", "prompt=", "login", "shell", "preserve-env"],
        stopAtOperand: true,
      });
      return { skip: p.firstOperand, reason: `it runs with other privileges (${name})` };
    }
    case "su":
    case "runuser": {
      const p = parseOptions(args, { flags: "lmp", withValue: "cgGsw", long: ["command=", "login", "shell=", "group=", "session-command="], stopAtOperand: true });
      const script = valuesOf(p, "c", "command", "session-command")[0];
      return { script, reason: `it runs with other privileges (${name})` };
    }
    case "pkexec":
      return {
        skip: parseOptions(args, { withValue: "u", long: ["user=", "disable-internal-agent"], stopAtOperand: true }).firstOperand,
        reason: "it runs with other privileges (pkexec)",
      };
    case "env": {
      const p = parseOptions(args, {
        flags: "i0v",
        withValue: "uCS",
        long: ["ignore-environment", "null", "unset=", "chdir=", "split-string=", "debug", "block-signal=", "default-signal=", "ignore-signal=", "list-signal-handling"],
        stopAtOperand: true,
      });
      if (hasAny(p, "C", "chdir")) return { reason: "env -C runs the command in another folder" };
      const split = valuesOf(p, "S", "split-string");
      if (split.length > 0) return { script: [...split, ...p.operands].join(" ") };
      let skip = p.firstOperand;
      while (skip < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[skip]!)) {
        const variable = /^[A-Za-z_][A-Za-z0-9_]*/.exec(args[skip]!)![0];
        if (STEERING_VARS.test(variable)) return { reason: `env sets ${variable}, which changes what the command runs` };
        skip++;
      }
      return { skip };
    }
    case "nohup":
    case "setsid":
    case "unbuffer":
    case "builtin":
      return { skip: parseOptions(args, { flags: "fwcp", stopAtOperand: true }).firstOperand };
    case "command": {
      const p = parseOptions(args, { flags: "pvV", stopAtOperand: true });
      // `command -v x` only says where x is
      return hasAny(p, "v", "V") ? {} : { skip: p.firstOperand };
    }
    case "exec":
      return { skip: parseOptions(args, { flags: "cl", withValue: "a", stopAtOperand: true }).firstOperand };
    case "nice":
      return { skip: parseOptions(args, { withValue: "n", long: ["adjustment="], stopAtOperand: true }).firstOperand };
    case "ionice":
      return { skip: parseOptions(args, { flags: "t", withValue: "cnpPu", long: ["class=", "classdata=", "pid=", "pgid=", "uid=", "ignore"], stopAtOperand: true }).firstOperand };
    case "stdbuf":
      return { skip: parseOptions(args, { withValue: "ioe", long: ["input=", "output=", "error="], stopAtOperand: true }).firstOperand };
    case "time":
      return {
        skip: parseOptions(args, { flags: "pavqV", withValue: "fo", long: ["format=", "output=", "append", "verbose", "quiet", "portability"], stopAtOperand: true }).firstOperand,
      };
    case "timeout": {
      const p = parseOptions(args, { flags: "fpv", withValue: "ks", long: ["kill-after=", "signal=", "foreground", "preserve-status", "verbose"], stopAtOperand: true });
      return { skip: p.firstOperand + 1 };
    }
    case "chrt": {
      const p = parseOptions(args, {
        flags: "abdefiopRrmv",
        withValue: "TPD",
        long: ["all-tasks", "batch", "deadline", "fifo", "idle", "other", "pid", "reset-on-fork", "rr", "max", "verbose", "sched-runtime=", "sched-period=", "sched-deadline="],
        stopAtOperand: true,
      });
      return { skip: p.firstOperand + 1 };
    }
    case "taskset": {
      const p = parseOptions(args, { flags: "apcv", long: ["all-tasks", "pid", "cpu-list", "verbose"], stopAtOperand: true });
      return { skip: p.firstOperand + 1 };
    }
    case "flock": {
      const p = parseOptions(args, {
        flags: "sxunoFhV",
        withValue: "wEc",
        long: ["shared", "exclusive", "unlock", "nonblock", "close", "no-fork", "timeout=", "conflict-exit-code=", "command=", "verbose"],
        stopAtOperand: true,
      });
      const script = valuesOf(p, "c", "command")[0];
      if (script !== undefined) return { script };
      // `flock FILE CMD …`; `flock FD` runs nothing
      return p.operands.length > 1 ? { skip: p.firstOperand + 1 } : {};
    }
    case "strace":
    case "ltrace": {
      const p = parseOptions(args, {
        flags: "cCdDfFhiqrtTvVwxyzZk",
        withValue: "aeEIbopPsSuXUnA",
        long: ["output=", "trace=", "signal=", "user=", "env=", "attach="],
        stopAtOperand: true,
      });
      return p.operands.length > 0 ? { skip: p.firstOperand } : {};
    }
    case "script": {
      const p = parseOptions(args, {
        flags: "aefqkTE",
        withValue: "cBIOmT",
        long: ["command=", "append", "flush", "quiet", "return", "log-io=", "log-in=", "log-out=", "log-timing=", "echo="],
      });
      const script = valuesOf(p, "c", "command")[0];
      return script !== undefined ? { script } : { reason: "script starts a shell that reads commands from its input" };
    }
    case "watch": {
      const p = parseOptions(args, {
        flags: "bcetgpx",
        withValue: "nd",
        long: ["interval=", "differences", "beep", "color", "errexit", "exec", "chgexit", "precise", "no-title", "no-wrap"],
        stopAtOperand: true,
      });
      return { script: p.operands.join(" ") };
    }
    case "busybox":
      return { skip: 0 };
    case "eval":
      return { script: args.join(" ") };
    case "find":
      return findWrapped(args, place);
    case "xargs":
      return xargsWrapped(args);
    case "source":
    case ".":
      return { reason: sourceReason(name, args, place) };
    default:
      if (SHELLS.has(name)) return shellWrapped(name, args);
      if (ELSEWHERE.has(name)) return { reason: `${name} runs commands in another context the check cannot see into` };
      return undefined;
  }
}

/** `bash -c '…'` runs its string; any other option, a script file or no script at all cannot be checked. */
function shellWrapped(name: string, args: string[]): Wrapped {
  let script: string | undefined;
  let wantsScript = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (wantsScript) {
      script = a;
      break;
    }
    if (a === "-" || a === "--") return { reason: `${name} reads commands from its input, which cannot be checked` };
    if (/^-[lceuxv]+$/.test(a)) {
      if (a.includes("c")) wantsScript = true;
      continue;
    }
    if (a.startsWith("-") || a.startsWith("+")) return { reason: `${name} is given the option ${a}, which changes what it runs in ways the check cannot follow` };
    return { reason: `${name} runs the script file ${a}, which the check cannot read` };
  }
  if (script !== undefined) return { script };
  return { reason: wantsScript ? `${name} -c has no command` : `${name} runs commands from its input, which cannot be checked` };
}

function findWrapped(args: string[], place: Place): Wrapped {
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-delete") return { reason: "find -delete removes files" };
    if ((a === "-fprint" || a === "-fprint0" || a === "-fls" || a === "-fprintf") && isOutside(args[i + 1] ?? "", place)) {
      return { reason: escaping(`find ${a} writes outside the working folder (${args[i + 1]})`) };
    }
    if (a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir") {
      let j = i + 1;
      while (j < args.length && args[j] !== ";" && args[j] !== "+") j++;
      const inner = args.slice(i + 1, j);
      const program = programBase(inner[0] ?? "");
      if (!READ_ONLY.has(program)) return { reason: `find ${a} runs ${inner[0] ?? "nothing"} on files only known when it runs` };
      scripts.push(inner.map(quoteWord).join(" "));
      i = j;
    }
  }
  return { script: scripts.length > 0 ? scripts.join("; ") : undefined };
}

function xargsWrapped(args: string[]): Wrapped {
  const p = parseOptions(args, {
    flags: "0prtox",
    withValue: "IiLlnPdEeasS",
    long: [
      "null",
      "arg-file=",
      "delimiter=",
      "eof=",
      "replace=",
      "max-lines=",
      "max-args=",
      "max-procs=",
      "interactive",
      "no-run-if-empty",
      "max-chars=",
      "show-limits",
      "verbose",
      "exit",
      "process-slot-var=",
      "open-tty",
    ],
    stopAtOperand: true,
  });
  const program = p.operands[0];
  if (program === undefined) return {};
  if (!READ_ONLY.has(programBase(program))) return { reason: `xargs runs ${program} on arguments only known when it runs` };
  return { script: p.operands.map(quoteWord).join(" ") };
}

function sourceReason(name: string, args: string[], place: Place): Reason | undefined {
  const file = args[0];
  if (file === undefined || file === "" || /^(<\(|\/dev\/|\/proc\/|-$)/.test(file) || /[$`*?[]/.test(file))
    return `${name} runs commands that cannot be checked (${file || "no file"})`;
  if (isOutside(file, place)) return escaping(`${name} runs a file outside the working folder (${file})`);
  const path = resolve(place.heres[0] ?? place.root, expandHome(file));
  const changed = changedThisSession(path);
  if (changed === undefined) return `${name} runs ${file}, which does not exist yet (it may be written by this very line)`;
  if (changed) return `${name} runs ${file}, which changed during this session`;
  return undefined;
}

function quoteWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

function programBase(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** Per-argument facts from the parser. */
export interface ArgInfo {
  dynamic: boolean[];
  glob: boolean[];
}

/** Why this command (not a wrapper) needs asking, if it does. */
export function commandReason(word: string, args: string[], info: ArgInfo, place: Place): Reason | undefined {
  const located = programLocation(word, place);
  if (located) return located;
  const name = programBase(word);
  const anyDynamic = info.dynamic.some(Boolean);
  const outside = (paths: string[]) => paths.find((p) => isOutside(p, place));
  const pathArgs = (p: ParsedOptions) => p.operands;
  const globAsOption = () => args.some((a, i) => info.glob[i] && !a.startsWith("/") && !a.startsWith(".") && !args.slice(0, i).includes("--"));
  switch (name) {
    case "cd":
    case "pushd":
    case "popd":
      changeDirectory(place, name, args, anyDynamic);
      return undefined;
    case "rm": {
      const p = parseOptions(args, { flags: "dfiIrRv", long: ["force", "interactive=", "one-file-system", "no-preserve-root", "preserve-root=", "recursive", "dir", "verbose"] });
      const deletesOutside = outside(pathArgs(p));
      if (hasAny(p, "r", "R", "f", "recursive", "force", "no-preserve-root")) return deletesOutside ? escaping("rm is recursive or forced") : "rm is recursive or forced";
      if (anyDynamic) return "rm has arguments that are only known when it runs";
      if (globAsOption()) return "rm has a pattern that could expand to a file named like an option (-rf)";
      const o = outside(pathArgs(p));
      return o ? escaping(`rm deletes outside the working folder (${o})`) : undefined;
    }
    case "git":
      return gitReason(args, anyDynamic, place);
    case "dd":
      return "dd writes raw data";
    case "chmod":
    case "chown":
    case "chgrp": {
      const p = parseOptions(args, {
        flags: "cfvRHLP",
        long: ["changes", "silent", "quiet", "verbose", "recursive", "reference=", "from=", "dereference", "no-dereference", "preserve-root", "no-preserve-root"],
      });
      if (hasAny(p, "R", "recursive")) return `${name} -R changes a whole tree`;
      if (anyDynamic) return `${name} has arguments that are only known when it runs`;
      if (globAsOption()) return `${name} has a pattern that could expand to a file named like an option`;
      const o = outside(p.operands.slice(hasAny(p, "reference") ? 0 : 1));
      return o ? escaping(`${name} changes a file outside the working folder (${o})`) : undefined;
    }
    case "systemctl": {
      const sub = parseOptions(args, { withValue: "HMpt", long: ["host=", "machine=", "property=", "type="] }).operands[0] ?? "";
      return ["poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "isolate", "rescue", "emergency"].includes(sub) ? `systemctl ${sub} stops the machine` : undefined;
    }
    case "init":
    case "telinit":
      return ["0", "1", "6", "s", "S"].includes(args[0] ?? "") ? `${name} ${args[0]} stops the machine` : undefined;
    case "tee":
    case "touch":
    case "mkdir":
    case "rmdir":
    case "truncate":
    case "shred":
    case "unlink":
    case "mv":
    case "ln":
    case "cp":
    case "install":
    case "rsync":
      return writerReason(name, args, info, place);
    case "curl":
      return curlReason(args, place);
    case "wget":
      return wgetReason(args, place);
    case "sed":
      return sedReason(args, place);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
    case "busybox-awk":
      return awkReason(name, args);
    case "tar":
    case "bsdtar":
      return tarReason(args, place);
    case "trap":
      return args.length > 0 && !["-l", "-p"].includes(args[0]!) ? "trap sets a command to run later, which cannot be checked" : undefined;
    case "alias":
      return args.some((a) => a.includes("=")) ? "alias changes what a later command name runs" : undefined;
    case "hash":
      return args.some((a) => a.startsWith("-") && a.includes("p")) ? "hash -p changes which file a command name runs" : undefined;
    case "mapfile":
    case "readarray":
      return args.some((a) => /^-[^-]*C/.test(a)) ? `${name} -C runs a callback, which cannot be checked` : undefined;
    case "enable":
      return "enable loads or switches shell builtins";
    case "kill":
      return args.some((a) => /^-?(1|0)$/.test(a) && a !== "-0") || args.some((a, i) => i > 0 && /^-\d+$/.test(a)) ? "kill signals every process or a whole group" : undefined;
    case "killall":
    case "pkill":
      return `${name} signals processes by name`;
    default:
      if (DECLARERS.has(name)) return declareReason(name, args);
      if (POWER.has(name)) return `${name} stops the machine`;
      if (DISK_TOOLS.test(name)) return `${name} changes a disk or file system`;
      if (PRIVILEGE.has(name)) return `it runs with other privileges (${name})`;
      return interpreterReason(name, args, place);
  }
}

/** A program given by path must be one of the system's; a bare name must resolve to one that did not change during the session. */
function programLocation(word: string, place: Place): string | undefined {
  if (word.includes("/")) {
    const dir = dirname(word);
    if (!SYSTEM_DIRS.includes(dir)) return `it runs ${word}, which is not a known program (only programs in ${SYSTEM_DIRS.slice(0, 3).join(", ")}, … are)`;
    if (changedThisSession(word)) return `it runs ${word}, which changed during this session`;
    return undefined;
  }
  if (HARMLESS_BUILTINS.has(word) || KNOWN_BUILTINS.has(word)) return undefined;
  const found = Bun.which(word);
  if (!found) return `it runs ${word}, which is not an installed program (it may be made by this very line)`;
  const real = realPath(found);
  if (isInside(real, realPath(place.root))) return `it runs ${word} from the working folder (${found})`;
  if (changedThisSession(real)) return `it runs ${word} (${found}), which changed during this session`;
  return undefined;
}

/** Builtins handled by name in commandReason / wrapperOf, so they need no program on PATH. */
const KNOWN_BUILTINS = new Set(["cd", "pushd", "popd", "trap", "alias", "hash", "mapfile", "readarray", "enable", "eval", "source", ".", "exec", "command", "builtin", "time"]);

/** Files a tool writes to; `ln` and `mv` also count their sources (a link out, a file taken from outside). */
function writerReason(name: string, args: string[], info: ArgInfo, place: Place): Reason | undefined {
  const outside = (paths: string[]) => paths.find((p) => isOutside(p, place));
  if (info.dynamic.some(Boolean)) return `${name} has arguments that are only known when it runs`;
  switch (name) {
    case "cp":
    case "install":
    case "rsync": {
      const p = parseOptions(args, {
        flags: "abdfHiLlnPpRrsTuvxzcDgoSCWyAXhqeE0",
        withValue: "tSmgoBfe",
        long: [
          "target-directory=",
          "no-target-directory",
          "recursive",
          "force",
          "backup=",
          "suffix=",
          "mode=",
          "owner=",
          "group=",
          "rsh=",
          "delete",
          "remove-source-files",
          "rsync-path=",
          "link-dest=",
          "copy-dest=",
          "compare-dest=",
          "backup-dir=",
          "temp-dir=",
          "log-file=",
          "files-from=",
          "parents",
        ],
      });
      if (hasAny(p, "rsh", "rsync-path") || (name === "rsync" && hasAny(p, "e"))) return "rsync runs a remote shell command";
      const targets = [...valuesOf(p, "t", "target-directory"), ...valuesOf(p, "backup-dir", "link-dest", "log-file", "temp-dir")];
      const target = targets.length > 0 ? targets : p.operands.slice(-1);
      const o = outside(target);
      if (o) return escaping(`${name} writes outside the working folder (${o})`);
      if (hasAny(p, "remove-source-files")) {
        const src = outside(p.operands);
        if (src) return escaping(`rsync removes files outside the working folder (${src})`);
      }
      return undefined;
    }
    case "ln": {
      const p = parseOptions(args, {
        flags: "bdfFiLnPrsTv",
        withValue: "St",
        long: [
          "backup=",
          "directory",
          "force",
          "interactive",
          "logical",
          "no-dereference",
          "physical",
          "relative",
          "symbolic",
          "suffix=",
          "target-directory=",
          "no-target-directory",
          "verbose",
        ],
      });
      const o = outside([...valuesOf(p, "t", "target-directory"), ...p.operands]);
      return o ? escaping(`ln makes a link to or in a place outside the working folder (${o})`) : undefined;
    }
    case "mv": {
      const p = parseOptions(args, {
        flags: "bfinTuvZ",
        withValue: "St",
        long: ["backup=", "force", "interactive", "no-clobber", "strip-trailing-slashes", "suffix=", "target-directory=", "no-target-directory", "update", "verbose"],
      });
      const o = outside([...valuesOf(p, "t", "target-directory"), ...p.operands]);
      return o ? escaping(`mv moves into or out of a place outside the working folder (${o})`) : undefined;
    }
    default: {
      const p = parseOptions(args, {
        flags: "aicmfpvhrux",
        withValue: "sotrdm",
        long: ["append", "ignore-interrupts", "no-create", "date=", "reference=", "time=", "parents", "mode=", "size=", "iterations=", "remove=", "zero", "exact"],
      });
      const o = outside([...p.operands, ...valuesOf(p, "reference", "r")]);
      return o ? escaping(`${name} writes outside the working folder (${o})`) : undefined;
    }
  }
}

const GIT_COMMANDS = new Set([
  "add",
  "am",
  "annotate",
  "apply",
  "archive",
  "bisect",
  "blame",
  "branch",
  "bundle",
  "cat-file",
  "check-attr",
  "check-ignore",
  "checkout",
  "cherry",
  "cherry-pick",
  "clean",
  "clone",
  "commit",
  "config",
  "count-objects",
  "describe",
  "diff",
  "diff-files",
  "diff-index",
  "diff-tree",
  "fetch",
  "for-each-ref",
  "format-patch",
  "fsck",
  "gc",
  "grep",
  "hash-object",
  "help",
  "init",
  "log",
  "ls-files",
  "ls-remote",
  "ls-tree",
  "merge",
  "merge-base",
  "mv",
  "notes",
  "pull",
  "push",
  "range-diff",
  "rebase",
  "reflog",
  "remote",
  "reset",
  "restore",
  "rev-list",
  "rev-parse",
  "revert",
  "rm",
  "shortlog",
  "show",
  "show-ref",
  "sparse-checkout",
  "stash",
  "status",
  "submodule",
  "switch",
  "symbolic-ref",
  "tag",
  "update-index",
  "verify-commit",
  "version",
  "whatchanged",
  "worktree",
  "write-tree",
]);

function gitReason(args: string[], anyDynamic: boolean, place: Place): Reason | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    const a = args[i]!;
    if (a === "-c" || a.startsWith("-c") || a.startsWith("--config-env")) return "git -c changes settings for this call (aliases, clean.requireForce, core.*)";
    if (/^--(exec-path|git-dir|work-tree|namespace|super-prefix)/.test(a)) return `git ${a.split("=")[0]} points git somewhere the check cannot follow`;
    if (a === "-C") {
      if (isOutside(args[i + 1] ?? "", place)) return escaping(`git -C works in a folder outside the working folder (${args[i + 1]})`);
      i += 2;
    } else i++;
  }
  const sub = args[i];
  if (sub === undefined) return undefined;
  if (!GIT_COMMANDS.has(sub)) return `git ${sub} is not a git command nova knows; it may be an alias that runs anything`;
  const rest = args.slice(i + 1);
  switch (sub) {
    case "push": {
      const p = parseOptions(rest, {
        flags: "fdnqvu4",
        withValue: "o",
        long: [
          "force",
          "force-with-lease=",
          "force-if-includes",
          "mirror",
          "delete",
          "prune",
          "all",
          "tags",
          "follow-tags",
          "set-upstream",
          "receive-pack=",
          "exec=",
          "repo=",
          "push-option=",
        ],
      });
      if (hasAny(p, "f", "force", "force-with-lease", "force-if-includes", "mirror", "d", "delete", "prune"))
        return escaping("git push overwrites or deletes remote history (force, mirror, delete)");
      if (hasAny(p, "receive-pack", "exec")) return escaping("git push --receive-pack runs a command");
      if (p.operands.some((r) => r.startsWith("+") || r.startsWith(":"))) return escaping("git push overwrites remote history (+refspec or :delete)");
      return anyDynamic ? "git push has arguments that are only known when it runs" : undefined;
    }
    case "reset":
      return hasAny(parseOptions(rest, { flags: "qNp", long: ["hard", "soft", "mixed", "merge", "keep", "quiet", "patch"] }), "hard", "merge", "keep")
        ? "git reset --hard discards changes"
        : undefined;
    case "clean":
      return hasAny(parseOptions(rest, { flags: "dfinqxXe", withValue: "e", long: ["force", "dry-run", "quiet", "exclude=", "interactive"] }), "f", "force")
        ? "git clean -f deletes untracked files"
        : undefined;
    case "checkout":
    case "switch":
    case "restore":
      return hasAny(
        parseOptions(rest, { flags: "fqbBlmp", withValue: "bBs", long: ["force", "discard-changes", "overwrite-ignore", "worktree", "source="] }),
        "f",
        "force",
        "discard-changes",
      )
        ? `git ${sub} --force discards changes`
        : undefined;
    case "config": {
      const p = parseOptions(rest, {
        flags: "elz",
        withValue: "f",
        long: [
          "global",
          "system",
          "local",
          "worktree",
          "file=",
          "add",
          "unset",
          "unset-all",
          "replace-all",
          "edit",
          "get",
          "get-all",
          "get-regexp",
          "list",
          "show-origin",
          "type=",
          "default=",
        ],
      });
      const reads = hasAny(p, "get", "get-all", "get-regexp", "list", "l") || p.operands.length <= 1;
      return reads && !hasAny(p, "e", "edit", "unset", "unset-all", "add", "replace-all")
        ? undefined
        : "git config changes settings later git commands follow (aliases, hooks, core.*)";
    }
    case "filter-branch":
      return "git filter-branch rewrites history";
    case "submodule":
    case "bisect":
      return rest[0] === "foreach" || rest[0] === "run" ? `git ${sub} ${rest[0]} runs commands` : undefined;
    case "rebase":
      return rest.some((a) => a === "-x" || a.startsWith("--exec")) ? "git rebase --exec runs commands" : undefined;
    default:
      return undefined;
  }
}

function curlReason(args: string[], place: Place): Reason | undefined {
  const p = parseOptions(args, {
    flags: "#0123456ABfGgIiJjkLlNnOqRsSvVZ",
    withValue: "AbcCdDeEFHKmoPQrTtuUwxXYyz",
    long: [
      "data=",
      "data-ascii=",
      "data-binary=",
      "data-raw=",
      "data-urlencode=",
      "form=",
      "form-string=",
      "json=",
      "upload-file=",
      "config=",
      "output=",
      "output-dir=",
      "dump-header=",
      "cookie-jar=",
      "trace=",
      "trace-ascii=",
      "stderr=",
      "url-query=",
      "variable=",
      "write-out=",
      "etag-save=",
      "hsts=",
      "alt-svc=",
    ],
  });
  const data = valuesOf(p, "d", "data", "data-ascii", "data-binary", "data-urlencode", "json", "url-query");
  if (data.some((v) => /^@|^[^=]*@/.test(v) && !v.startsWith("@-"))) return escaping("curl sends the contents of a local file (@file)");
  if (valuesOf(p, "F", "form").some((v) => /=[@<]/.test(v))) return escaping("curl uploads a local file (-F name=@file)");
  if (hasAny(p, "T", "upload-file")) return escaping("curl uploads a local file (-T)");
  if (hasAny(p, "K", "config", "variable")) return "curl reads options from a file the check cannot see";
  const written = valuesOf(p, "o", "output", "output-dir", "D", "dump-header", "c", "cookie-jar", "trace", "trace-ascii", "stderr", "etag-save", "hsts", "alt-svc");
  const o = written.find((w) => w !== "-" && isOutside(w, place));
  return o ? escaping(`curl writes outside the working folder (${o})`) : undefined;
}

function wgetReason(args: string[], place: Place): Reason | undefined {
  const p = parseOptions(args, {
    flags: "bcdhiknNqrSvVxF",
    withValue: "aeiloOPtTwQUDAR",
    long: [
      "post-file=",
      "body-file=",
      "post-data=",
      "body-data=",
      "method=",
      "execute=",
      "output-document=",
      "directory-prefix=",
      "output-file=",
      "append-output=",
      "input-file=",
      "config=",
      "load-cookies=",
      "save-cookies=",
    ],
  });
  if (hasAny(p, "post-file", "body-file")) return escaping("wget uploads a local file (--post-file / --body-file)");
  if (hasAny(p, "e", "execute", "config")) return "wget runs startup commands (-e / --config)";
  const written = valuesOf(p, "O", "output-document", "P", "directory-prefix", "o", "output-file", "a", "append-output", "save-cookies");
  const o = written.find((w) => w !== "-" && isOutside(w, place));
  return o ? escaping(`wget writes outside the working folder (${o})`) : undefined;
}

/** sed runs commands with `e` (and `s///e`) and writes files with `w` (and `s///w`); -i edits its operands. */
function sedReason(args: string[], place: Place): Reason | undefined {
  const p = parseOptions(args, {
    flags: "nrEsuzi",
    withValue: "efl",
    long: ["expression=", "file=", "in-place=", "regexp-extended", "quiet", "silent", "separate", "null-data", "sandbox", "posix", "debug", "follow-symlinks", "line-length="],
  });
  if (hasAny(p, "f", "file")) return "sed runs a script file the check cannot read";
  const scripts = valuesOf(p, "e", "expression");
  const operands = scripts.length > 0 ? p.operands : p.operands.slice(1);
  if (scripts.length === 0 && p.operands[0] !== undefined) scripts.push(p.operands[0]);
  if (scripts.some(sedRunsOrWrites)) return "sed runs commands or writes files from its script (e / w)";
  if (hasAny(p, "i", "in-place")) {
    const o = operands.find((f) => isOutside(f, place));
    if (o) return escaping(`sed -i edits a file outside the working folder (${o})`);
  }
  return undefined;
}

/** Scans a sed script's commands (addresses, `s` bodies and flags, `y`, text commands) for `e`, `w` and `W`. */
export function sedRunsOrWrites(script: string): boolean {
  let i = 0;
  const s = script;
  const skipDelimited = (delim: string) => {
    while (i < s.length && s[i] !== delim) i += s[i] === "\\" ? 2 : 1;
    i++;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (" \t\n;{}!".includes(c)) {
      i++;
    } else if (/[0-9$,~+]/.test(c)) {
      i++;
    } else if (c === "/" || (c === "\\" && i + 1 < s.length)) {
      // an address /re/ or \cREc
      const delim = c === "/" ? "/" : s[++i]!;
      i++;
      skipDelimited(delim);
      while (/[IM]/.test(s[i] ?? "")) i++;
    } else if (c === "#" || c === ":" || c === "b" || c === "t" || c === "T" || c === "r" || c === "R" || c === "a" || c === "i" || c === "c") {
      const nl = s.indexOf("\n", i);
      // `a text`, `r file`, labels: the rest of the line belongs to the command (a `;` does not end it for a/i/c/r)
      i = nl === -1 ? s.length : nl;
    } else if (c === "s") {
      const delim = s[i + 1];
      if (delim === undefined) return false;
      i += 2;
      skipDelimited(delim);
      skipDelimited(delim);
      while (i < s.length && /[gpiImMe0-9w]/.test(s[i]!)) {
        if (s[i] === "e" || s[i] === "w") return true;
        i++;
      }
    } else if (c === "y") {
      const delim = s[i + 1];
      if (delim === undefined) return false;
      i += 2;
      skipDelimited(delim);
      skipDelimited(delim);
    } else if (c === "e" || c === "w" || c === "W") {
      return true;
    } else {
      i++;
    }
  }
  return false;
}

function awkReason(name: string, args: string[]): string | undefined {
  const p = parseOptions(args, { withValue: "fvFE", long: ["file=", "assign=", "field-separator=", "source=", "exec=", "include=", "load="] });
  if (hasAny(p, "f", "file", "E", "exec", "include", "load")) return `${name} runs a program file the check cannot read`;
  const programs = [...valuesOf(p, "source"), ...(hasAny(p, "source") ? [] : p.operands.slice(0, 1))];
  return programs.some((prog) => /system|\||getline|>|close|fflush/.test(prog)) ? `${name}'s program runs commands or writes files (system, |, getline, >)` : undefined;
}

function tarReason(args: string[], place: Place): Reason | undefined {
  const first = args[0] ?? "";
  // `tar xzf a.tgz`: the first word may be bundled flags without a dash
  const normalized = first && !first.startsWith("-") ? [`-${first}`, ...args.slice(1)] : args;
  const p = parseOptions(normalized, {
    flags: "AcdrtuxzjJZvkWpPhSOmGB",
    withValue: "fCIFTXgbLNVKH",
    long: [
      "checkpoint-action=",
      "to-command=",
      "use-compress-program=",
      "info-script=",
      "new-volume-script=",
      "rsh-command=",
      "rmt-command=",
      "directory=",
      "file=",
      "absolute-names",
      "overwrite",
      "unlink-first",
      "recursive-unlink",
      "remove-files",
    ],
  });
  if (hasAny(p, "checkpoint-action", "to-command", "use-compress-program", "I", "info-script", "new-volume-script", "F", "rsh-command", "rmt-command"))
    return "tar runs a command of its own (checkpoint action, compressor, to-command, volume script)";
  if (hasAny(p, "absolute-names", "P")) return "tar --absolute-names may write anywhere";
  const dirs = valuesOf(p, "C", "directory");
  const o = dirs.find((d) => isOutside(d, place));
  if (o && hasAny(p, "x", "extract")) return escaping(`tar extracts outside the working folder (${o})`);
  const archive = valuesOf(p, "f", "file").find((f) => f !== "-" && isOutside(f, place));
  if (archive && hasAny(p, "c", "r", "u", "A")) return escaping(`tar writes an archive outside the working folder (${archive})`);
  return undefined;
}

/** `declare`/`export`/… can assign the variables that steer later commands, and export functions. */
function declareReason(name: string, args: string[]): string | undefined {
  for (const a of args) {
    if (/^-[A-Za-z]*f/.test(a) && name === "export") return "export -f hands a function to the commands it starts";
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(a)?.[1];
    if (variable && STEERING_VARS.test(variable)) {
      return `${name} sets ${variable}, which changes what later commands run or where`;
    }
  }
  return undefined;
}

/** Interpreters with inline code, or a script the session wrote (or that does not exist yet). */
function interpreterReason(name: string, args: string[], place: Place): string | undefined {
  const family = /^python[0-9.]*$/.test(name)
    ? "python"
    : /^perl[0-9.]*$/.test(name)
      ? "perl"
      : /^(ruby|node|nodejs|bun|deno|php|lua[0-9.]*|Rscript|tclsh|osascript|pwsh)$/.test(name)
        ? name.replace(/^nodejs$/, "node").replace(/^lua[0-9.]*$/, "lua")
        : undefined;
  if (!family) return undefined;
  const spec = INTERPRETERS[family]!;
  if (family === "deno")
    return args[0] === "eval" || args[0] === "repl"
      ? `deno ${args[0]} runs inline code`
      : scriptFileReason(
          name,
          args.find((a) => !a.startsWith("-") && a !== "run"),
          place,
        );
  if (family === "bun" && ["run", "x", "test", "install", "add", "build", "pm", "create", "upgrade", "init", "remove", "update", "link", "outdated"].includes(args[0] ?? ""))
    return undefined;
  const p = parseOptions(args, {
    flags: "bBdEhiIOqsSuvVxaglnpw",
    withValue: spec.inline + (spec.value ?? ""),
    long: [...(spec.longInline ?? []).map((l) => `${l}=`), ...(spec.longValue ?? []).map((l) => `${l}=`)],
    stopAtOperand: true,
  });
  const inline = [...spec.inline].some((c) => p.options.has(c)) || (spec.longInline ?? []).some((l) => p.options.has(l));
  if (inline) return `${name} runs inline code the check cannot read`;
  if (family === "python" && hasAny(p, "m")) return undefined;
  const script = p.operands[0];
  if (script === undefined || script === "-") return `${name} reads code from its input, which cannot be checked`;
  return scriptFileReason(name, script, place);
}

function scriptFileReason(name: string, script: string | undefined, place: Place): string | undefined {
  if (script === undefined) return undefined;
  if (/[$`*?[]/.test(script) || /^(\/dev\/|\/proc\/|<\()/.test(script)) return `${name} runs a script only known when it runs (${script})`;
  const path = resolve(place.heres[0] ?? place.root, expandHome(script));
  const changed = changedThisSession(path);
  if (changed === undefined) return `${name} runs ${script}, which does not exist yet (it may be written by this very line)`;
  if (changed) return `${name} runs ${script}, which changed during this session`;
  return undefined;
}

/** true: changed since nova started (this session may have written it); undefined: it does not exist. */
function changedThisSession(path: string): boolean | undefined {
  try {
    const st = statSync(path);
    return Math.max(st.mtimeMs, st.ctimeMs) >= SESSION_START_MS;
  } catch {
    return undefined;
  }
}

/** `cd` adds a place the rest of the line may run in; the places before stay possible (a subshell's cd does not last). */
function changeDirectory(place: Place, name: string, args: string[], dynamic: boolean): void {
  const add = (dir: string | undefined) => {
    if (!place.heres.includes(dir)) place.heres.push(dir);
  };
  if (name === "popd" || dynamic) return add(undefined);
  const target = args.filter((a) => !/^-[LPe@]+$/.test(a) && a !== "--")[0];
  if (target === undefined) return add(name === "cd" ? homedir() : undefined);
  if (target === "-" || /^[+-]\d+$/.test(target)) return add(undefined);
  const expanded = expandHome(target);
  // with CDPATH set, a relative name may land in any of its folders
  if (process.env.CDPATH && !isAbsolute(expanded) && !/^\.\.?(\/|$)/.test(expanded)) return add(undefined);
  if (isAbsolute(expanded)) return add(realPath(expanded));
  for (const here of [...place.heres]) add(here === undefined ? undefined : realPath(resolve(here, expanded)));
}

function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return homedir() + path.slice(1);
  // `~user` is some other home: outside the working folder, wherever it is.
  return path.startsWith("~") ? "/" : path;
}

/** Whether a path a command writes lands outside the working folder from any place the line may be in; unknown values count as outside. */
export function isOutside(target: string, place: Place): boolean {
  if (SAFE_DEVICES.test(target) || /^\/dev\/fd\/[0-2]$/.test(target)) return false;
  if (target === "" || /[$`]/.test(target)) return true;
  const expanded = expandHome(target);
  const root = realPath(place.root);
  for (const here of place.heres) {
    if (!isAbsolute(expanded) && here === undefined) return true;
    const full = realPath(resolve(here ?? place.root, expanded));
    if (!isInside(full, root)) return true;
  }
  return false;
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The path with every symlink that already exists resolved; the part that does not exist yet is appended as written. */
function realPath(path: string): string {
  let head = resolve(path);
  const tail: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      tail.push(head.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      head = parent;
    }
  }
}
