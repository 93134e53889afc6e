/**
 * Command-line options the way each tool's own parser reads them, so the
 * permission check sees `rm --rec`, `rm -vfr`, `cp --target-dir=x` and
 * `rm -- -rf` as the tool does: GNU long options with `=value` or a separate
 * value, unambiguous prefixes (`--forc` is `--force`), `--` ends the options,
 * `-` is an operand, short flags bundle (`-rf`) and a short option with a
 * value takes the rest of its cluster or the next word (`-tDIR`, `-t DIR`).
 * Options may follow operands (GNU permutation) unless `stopAtOperand`.
 *
 * A prefix that could mean several options counts as all of them, so the
 * check fails closed on an ambiguity the tool itself would reject.
 */

export interface OptionSpec {
  /** short flags without a value, e.g. "rfiv" */
  flags?: string;
  /** short options that take a value, e.g. "t" */
  withValue?: string;
  /** long options; a trailing "=" means the option takes a value ("target-directory=") */
  long?: string[];
  /** options end at the first operand (POSIX utilities, wrappers that run a command) */
  stopAtOperand?: boolean;
}

export interface ParsedOptions {
  /** every option seen, by its canonical name: the short letter or the full long name; values in order */
  options: Map<string, string[]>;
  operands: string[];
  /** index in `args` of the first operand (where a wrapped command starts) */
  firstOperand: number;
}

export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const options = new Map<string, string[]>();
  const operands: string[] = [];
  let firstOperand = -1;
  const add = (name: string, value = "") => {
    const values = options.get(name) ?? [];
    values.push(value);
    options.set(name, values);
  };
  const longs = (spec.long ?? []).map((l) => ({ name: l.replace(/=$/, ""), takesValue: l.endsWith("=") }));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      if (firstOperand === -1) firstOperand = i + 1;
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const given = a.slice(2, eq === -1 ? undefined : eq);
      const exact = longs.filter((l) => l.name === given);
      const matches = exact.length > 0 ? exact : longs.filter((l) => l.name.startsWith(given));
      if (matches.length === 0) add(`--${given}`, eq === -1 ? "" : a.slice(eq + 1));
      let consumedNext = false;
      for (const m of matches) {
        if (eq !== -1) add(m.name, a.slice(eq + 1));
        else if (m.takesValue) {
          add(m.name, args[i + 1] ?? "");
          consumedNext = true;
        } else add(m.name);
      }
      if (consumedNext) i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (spec.withValue?.includes(c)) {
          const rest = a.slice(j + 1);
          if (rest !== "") add(c, rest);
          else {
            add(c, args[i + 1] ?? "");
            i++;
          }
          break;
        }
        add(c);
      }
      continue;
    }
    if (firstOperand === -1) firstOperand = i;
    if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      break;
    }
    operands.push(a);
  }
  return { options, operands, firstOperand: firstOperand === -1 ? args.length : firstOperand };
}

/** Whether any of `names` (short letters or long names) was given. */
export function hasAny(parsed: ParsedOptions, ...names: string[]): boolean {
  return names.some((n) => parsed.options.has(n));
}

/** All values given to any of `names`. */
export function valuesOf(parsed: ParsedOptions, ...names: string[]): string[] {
  return names.flatMap((n) => parsed.options.get(n) ?? []);
}
