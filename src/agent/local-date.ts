/**
 * The local calendar date (YYYY-MM-DD) without waking ICU's time-zone data:
 * the first local-time call on a `Date` (getMonth) loads it, 4–30 ms of a cold
 * start, for one date in the system prompt. Where the zone is a TZif file
 * (TZ unset → /etc/localtime, or TZ naming a zone under the zoneinfo folder)
 * its UTC offset at `now` is read from the file; anything this cannot answer
 * exactly (a POSIX rule string in TZ, a time past the file's last transition
 * in a zone with daylight saving, another OS, a file that does not parse) goes
 * to `Date`'s own local time, so the answer is always the one `Date` gives.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export function localIsoDate(now: Date = new Date(), env: NodeJS.ProcessEnv = process.env): string {
  const offset = process.platform === "win32" ? undefined : zoneOffsetSeconds(now.getTime(), env);
  if (offset === undefined) return isoDate(now.getFullYear(), now.getMonth(), now.getDate());
  const shifted = new Date(now.getTime() + offset * 1000);
  return isoDate(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate());
}

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The zone's offset from UTC at `ms`, in seconds, or undefined when only ICU can tell. */
export function zoneOffsetSeconds(ms: number, env: NodeJS.ProcessEnv): number | undefined {
  const file = zoneFile(env.TZ, env.TZDIR);
  if (file === undefined) return undefined;
  if (file === "UTC") return 0;
  try {
    return offsetAt(readFileSync(file), Math.floor(ms / 1000));
  } catch {
    return undefined;
  }
}

/** "UTC", a TZif path, or undefined for a TZ value only ICU understands. */
function zoneFile(tz: string | undefined, tzdir: string | undefined): string | undefined {
  if (tz === undefined) return "/etc/localtime";
  const name = tz.startsWith(":") ? tz.slice(1) : tz;
  if (name === "" || name === "UTC" || name === "UTC0" || name === "Etc/UTC") return "UTC";
  // a zone name is letters, digits, '_', '-', '+' and '/' (no '..', not absolute: ICU does not read a path); "EST5EDT"-like names are files too
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.includes("..")) return undefined;
  return join(tzdir || "/usr/share/zoneinfo", name);
}

/**
 * RFC 8536: the version 2+ body (64-bit times) when present, else version 1.
 * The offset of the last transition at or before `t`; before the first, the
 * first standard-time type. Past the last transition the footer's rule
 * applies: without daylight saving its offset is the last type's, with it
 * undefined (left to ICU).
 */
function offsetAt(bytes: Buffer, t: number): number | undefined {
  if (bytes.toString("latin1", 0, 4) !== "TZif") return undefined;
  const version = bytes[4] ?? 0;
  const header = (at: number) => ({
    isutcnt: bytes.readUInt32BE(at + 20),
    isstdcnt: bytes.readUInt32BE(at + 24),
    leapcnt: bytes.readUInt32BE(at + 28),
    timecnt: bytes.readUInt32BE(at + 32),
    typecnt: bytes.readUInt32BE(at + 36),
    charcnt: bytes.readUInt32BE(at + 40),
  });
  let at = 0;
  let h = header(0);
  let timeSize = 4;
  if (version >= 0x32) {
    at = 44 + h.timecnt * 5 + h.typecnt * 6 + h.charcnt + h.leapcnt * 8 + h.isstdcnt + h.isutcnt;
    if (bytes.toString("latin1", at, at + 4) !== "TZif") return undefined;
    h = header(at);
    timeSize = 8;
  }
  if (h.typecnt === 0) return undefined;
  const times = at + 44;
  const indices = times + h.timecnt * timeSize;
  const types = indices + h.timecnt;
  const typeOffset = (i: number) => bytes.readInt32BE(types + i * 6);
  const isDst = (i: number) => bytes[types + i * 6 + 4] === 1;
  const timeAt = (i: number) => (timeSize === 8 ? Number(bytes.readBigInt64BE(times + i * 8)) : bytes.readInt32BE(times + i * 4));
  let last = -1;
  for (let lo = 0, hi = h.timecnt - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (timeAt(mid) <= t) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last === -1 || last === h.timecnt - 1) {
    // past the last transition (or with none) the footer's rule applies; with daylight saving ("CET-1CEST,M3.5.0,…") it is ICU's to answer
    if (version < 0x32 && h.timecnt > 0) return undefined;
    const body = types + h.typecnt * 6 + h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt;
    if (version >= 0x32 && bytes.toString("latin1", body, bytes.length).includes(",")) return undefined;
  }
  if (last === -1) {
    for (let i = 0; i < h.typecnt; i++) if (!isDst(i)) return typeOffset(i);
    return typeOffset(0);
  }
  const type = bytes[indices + last] ?? 0;
  return typeOffset(type);
}
