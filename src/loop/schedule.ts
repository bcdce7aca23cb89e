/**
 * Snippets for the host's own scheduler. There is no deja daemon: a loop
 * run is a cheap, idempotent command, and time triggers are the operating
 * system's job. These functions only print; nothing is installed.
 *
 * @module
 */

/** Schedulers a snippet can target. */
export type SchedulerOs = "cron" | "systemd" | "launchd" | "windows";

/** Every scheduler, for validation and help. */
export const SCHEDULER_OSES: readonly SchedulerOs[] = [
  "cron",
  "systemd",
  "launchd",
  "windows",
];

/** Options for {@linkcode scheduleSnippet}. */
export interface ScheduleOptions {
  /** Which scheduler. */
  os: SchedulerOs;
  /** Interval in milliseconds (whole minutes, at least one). */
  everyMs: number;
  /** The command to run, as argv (absolute program path first). */
  argv: readonly string[];
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function posixQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg)
    ? arg
    : `'${arg.replaceAll("'", `'\\''`)}'`;
}

function xmlEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(
    ">",
    "&gt;",
  ).replaceAll('"', "&quot;");
}

function windowsQuote(arg: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(arg)
    ? arg
    : `"${arg.replaceAll('"', '\\"')}"`;
}

function cronSpec(every: number): string {
  if (every % DAY === 0) {
    const d = every / DAY;
    return d === 1 ? "0 0 * * *" : `0 0 */${d} * *`;
  }
  if (every % HOUR === 0) {
    const h = every / HOUR;
    if (h < 24) return h === 1 ? "0 * * * *" : `0 */${h} * * *`;
    throw new RangeError(
      `cron cannot run every ${h}h; use hours below 24 or whole days`,
    );
  }
  const m = every / MIN;
  if (m < 60) return `*/${m} * * * *`;
  throw new RangeError(
    `cron cannot run every ${m} minutes; use minutes below 60, hours or days`,
  );
}

function systemdSpan(every: number): string {
  if (every % DAY === 0) return `${every / DAY}d`;
  if (every % HOUR === 0) return `${every / HOUR}h`;
  return `${every / MIN}min`;
}

function schtasksSchedule(every: number): string {
  if (every % DAY === 0) return `/SC DAILY /MO ${every / DAY}`;
  if (every % HOUR === 0 && every / HOUR <= 23) {
    return `/SC HOURLY /MO ${every / HOUR}`;
  }
  const m = every / MIN;
  if (m <= 1439) return `/SC MINUTE /MO ${m}`;
  throw new RangeError(
    `Windows Task Scheduler cannot run every ${m} minutes; use whole days beyond 23h`,
  );
}

/**
 * Renders a scheduler snippet that runs `argv` every `everyMs`: a crontab
 * line, a systemd service + timer pair, a launchd plist, or a schtasks
 * command.
 *
 * @param options Scheduler, interval and command.
 * @returns The snippet, ending in a newline.
 * @throws {RangeError} When the interval is not whole minutes or the scheduler cannot express it.
 * @example
 * ```ts
 * import { scheduleSnippet } from "./schedule.ts";
 * import { equal } from "node:assert/strict";
 * const line = scheduleSnippet({ os: "cron", everyMs: 86_400_000, argv: ["/usr/local/bin/deja", "loop", "run", "--quiet"] });
 * equal(line, "0 0 * * * /usr/local/bin/deja loop run --quiet\n");
 * ```
 */
export function scheduleSnippet(options: ScheduleOptions): string {
  const every = options.everyMs;
  if (!Number.isFinite(every) || every < MIN || every % MIN !== 0) {
    throw new RangeError("The interval must be whole minutes, at least 1m");
  }
  const argv = [...options.argv];
  switch (options.os) {
    case "cron":
      // A bare % ends a crontab command (the rest becomes its stdin).
      return `${cronSpec(every)} ${
        argv.map(posixQuote).join(" ").replaceAll("%", "\\%")
      }\n`;
    case "systemd":
      return [
        "# ~/.config/systemd/user/deja-loop.service",
        "[Unit]",
        "Description=Deja Loop analysis pass",
        "",
        "[Service]",
        "Type=oneshot",
        // systemd reads % as the start of a specifier.
        `ExecStart=${argv.map(posixQuote).join(" ").replaceAll("%", "%%")}`,
        "",
        "# ~/.config/systemd/user/deja-loop.timer",
        "[Unit]",
        `Description=Run the Deja Loop every ${systemdSpan(every)}`,
        "",
        "[Timer]",
        "OnBootSec=15min",
        `OnUnitActiveSec=${systemdSpan(every)}`,
        "Persistent=true",
        "",
        "[Install]",
        "WantedBy=timers.target",
        "",
        "# then: systemctl --user daemon-reload && systemctl --user enable --now deja-loop.timer",
        "",
      ].join("\n");
    case "launchd":
      return [
        "<!-- ~/Library/LaunchAgents/dev.deja.loop.plist ; then: launchctl load -w ~/Library/LaunchAgents/dev.deja.loop.plist -->",
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">',
        "<dict>",
        "  <key>Label</key>",
        "  <string>dev.deja.loop</string>",
        "  <key>ProgramArguments</key>",
        "  <array>",
        ...argv.map((a) => `    <string>${xmlEscape(a)}</string>`),
        "  </array>",
        "  <key>StartInterval</key>",
        `  <integer>${every / 1000}</integer>`,
        "  <key>RunAtLoad</key>",
        "  <false/>",
        "</dict>",
        "</plist>",
        "",
      ].join("\n");
    case "windows": {
      const tr = argv.map(windowsQuote).join(" ").replaceAll('"', '\\"');
      return `schtasks /Create /TN "deja loop" ${
        schtasksSchedule(every)
      } /TR "${tr}" /F\n`;
    }
  }
}
