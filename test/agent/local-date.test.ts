/**
 * The system prompt's local date read from the zone file gives exactly what
 * `Date`'s local time (ICU) gives, for zones with and without daylight saving,
 * half-hour and 45-minute offsets, across DST changes and around midnight, and
 * for TZ values it leaves to ICU. Each TZ runs in its own process (ICU reads
 * TZ once).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const MODULE = join(import.meta.dir, "../../src/agent/local-date.ts");
const SCRIPT = `
const { localIsoDate, zoneOffsetSeconds } = await import(${JSON.stringify(MODULE)});
const fromFile = zoneOffsetSeconds(Date.now(), process.env) !== undefined;
const instants = [];
for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 3 * 3600 * 1000 + 17 * 60 * 1000) instants.push(ms);
instants.push(Date.now(), Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0), Date.UTC(2026, 9, 25, 0, 59), Date.UTC(2026, 9, 25, 1, 1));
const ours = instants.map((ms) => localIsoDate(new Date(ms)));
const icu = instants.map((ms) => { const d = new Date(ms); return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0"); });
console.log(JSON.stringify({ ours, icu, fromFile }));
`;

/** answered from the zone file, without ICU */
const FROM_FILE = [
  undefined,
  "",
  "UTC",
  "Europe/Berlin",
  ":Europe/Paris",
  "America/New_York",
  "America/St_Johns",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "Australia/Lord_Howe",
  "Pacific/Kiritimati",
  "America/Adak",
  "EST5EDT",
];
/** left to ICU: a POSIX rule string, an unknown zone, a path */
const ZONES = [...FROM_FILE, "CET-1CEST,M3.5.0,M10.5.0/3", "No/Such_Zone", "/usr/share/zoneinfo/Asia/Tokyo"];

for (const tz of ZONES) {
  test(`TZ=${tz === undefined ? "(unset)" : JSON.stringify(tz)}: the same dates as Date's local time`, async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
    if (tz !== undefined) env.TZ = tz;
    const proc = Bun.spawn(["bun", "-e", SCRIPT], { env, stdout: "pipe", stderr: "inherit" });
    const { ours, icu, fromFile } = JSON.parse(await new Response(proc.stdout).text());
    expect(await proc.exited).toBe(0);
    expect(icu.length).toBeGreaterThan(10000);
    expect(ours).toEqual(icu);
    expect(fromFile).toBe(FROM_FILE.includes(tz));
  });
}
