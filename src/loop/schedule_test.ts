import { equal, match, throws } from "node:assert/strict";
import { scheduleSnippet } from "./schedule.ts";

const argv = [
  "/opt/deja/bin/deja",
  "loop",
  "run",
  "--db",
  "/home/me/my memory.db",
  "--min-new",
  "20",
  "--quiet",
];
const H = 3_600_000;

Deno.test("scheduleSnippet() prints a crontab line", async (t) => {
  const cases: Array<[number, string]> = [
    [6 * H, "0 */6 * * *"],
    [H, "0 * * * *"],
    [30 * 60_000, "*/30 * * * *"],
    [24 * H, "0 0 * * *"],
    [48 * H, "0 0 */2 * *"],
  ];
  for (const [every, spec] of cases) {
    await t.step(spec, () => {
      equal(
        scheduleSnippet({ os: "cron", everyMs: every, argv }),
        `${spec} /opt/deja/bin/deja loop run --db '/home/me/my memory.db' --min-new 20 --quiet\n`,
      );
    });
  }
  throws(
    () => scheduleSnippet({ os: "cron", everyMs: 36 * H, argv }),
    RangeError,
  );
  throws(
    () => scheduleSnippet({ os: "cron", everyMs: 30_000, argv }),
    RangeError,
  );
});

Deno.test("scheduleSnippet() prints a systemd timer and service", () => {
  const text = scheduleSnippet({ os: "systemd", everyMs: 6 * H, argv });
  match(
    text,
    /\[Service\]\nType=oneshot\nExecStart=\/opt\/deja\/bin\/deja loop run --db '\/home\/me\/my memory.db'/,
  );
  match(text, /OnUnitActiveSec=6h/);
  match(text, /WantedBy=timers.target/);
});

Deno.test("scheduleSnippet() prints a launchd plist", () => {
  const text = scheduleSnippet({
    os: "launchd",
    everyMs: 6 * H,
    argv: [...argv, "<&>"],
  });
  match(text, /<integer>21600<\/integer>/);
  match(text, /<string>\/home\/me\/my memory.db<\/string>/);
  match(text, /<string>&lt;&amp;&gt;<\/string>/);
});

Deno.test("scheduleSnippet() prints a schtasks command", () => {
  const text = scheduleSnippet({
    os: "windows",
    everyMs: 6 * H,
    argv: ["C:\\deja\\deja.exe", "loop", "run", "--db", "C:\\My Data\\m.db"],
  });
  equal(
    text,
    'schtasks /Create /TN "deja loop" /SC HOURLY /MO 6 /TR "C:\\deja\\deja.exe loop run --db \\"C:\\My Data\\m.db\\"" /F\n',
  );
  match(
    scheduleSnippet({ os: "windows", everyMs: 2 * 24 * H, argv }),
    /\/SC DAILY \/MO 2/,
  );
  match(
    scheduleSnippet({ os: "windows", everyMs: 90 * 60_000, argv }),
    /\/SC MINUTE \/MO 90/,
  );
});

Deno.test("scheduleSnippet() escapes the % cron and systemd give a meaning", () => {
  const odd = ["/opt/deja", "loop", "run", "--db", "/data/100%/m.db"];
  // cron ends the command at a bare % (the rest becomes its stdin);
  // systemd reads %/ as a specifier.
  equal(
    scheduleSnippet({ os: "cron", everyMs: 6 * H, argv: odd }),
    "0 */6 * * * /opt/deja loop run --db /data/100\\%/m.db\n",
  );
  match(
    scheduleSnippet({ os: "systemd", everyMs: 6 * H, argv: odd }),
    /\nExecStart=\/opt\/deja loop run --db \/data\/100%%\/m\.db\n/,
  );
});
