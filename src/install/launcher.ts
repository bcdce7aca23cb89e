/**
 * The hook launcher: a short shell script every installed hook and MCP entry
 * calls instead of a binary path, so an upgrade or a move needs no config
 * rewrite. It finds deja when it runs: `DEJA_BIN`, the command install ran
 * from, `~/.local/bin`, `~/bin`, the usual install locations, then PATH. A
 * hook with no deja to run exits 0 and prints nothing.
 *
 * @module
 */
import { join } from "node:path";
import { xdgBase } from "../core/paths.ts";

/**
 * Where deja keeps its own config (`$XDG_CONFIG_HOME/deja`, else
 * `~/.config/deja`).
 *
 * @param home HOME.
 * @param env The environment.
 * @returns The directory.
 * @example
 * ```ts
 * import { dejaConfigDir } from "./launcher.ts";
 * import { equal } from "node:assert/strict";
 * equal(dejaConfigDir("/h", {}), "/h/.config/deja");
 * ```
 */
export function dejaConfigDir(
  home: string,
  env: Record<string, string | undefined>,
): string {
  return join(xdgBase(env, "XDG_CONFIG_HOME", join(home, ".config")), "deja");
}

/**
 * The launcher's path.
 *
 * @param home HOME.
 * @param env The environment.
 * @returns `<config>/deja/bin/deja-hook`.
 * @example
 * ```ts
 * import { launcherPath } from "./launcher.ts";
 * import { equal } from "node:assert/strict";
 * equal(launcherPath("/h", {}), "/h/.config/deja/bin/deja-hook");
 * ```
 */
export function launcherPath(
  home: string,
  env: Record<string, string | undefined>,
): string {
  return join(dejaConfigDir(home, env), "bin", "deja-hook");
}

function sq(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The launcher script.
 *
 * @param installedFrom The argv that ran `deja install` (binary, or deno and
 *   its arguments for a checkout).
 * @returns The script text.
 * @example
 * ```ts
 * import { launcherScript } from "./launcher.ts";
 * import { ok } from "node:assert/strict";
 * ok(launcherScript(["/opt/deja/bin/deja"]).startsWith("#!/bin/sh\n"));
 * ```
 */
export function launcherScript(installedFrom: readonly string[]): string {
  const [exe = "", ...rest] = installedFrom;
  const checks = [
    `[ -x ${sq(exe)} ]`,
    ...rest.filter((a) => a.endsWith(".ts") || a.endsWith(".json")).map((a) =>
      `[ -f ${sq(a)} ]`
    ),
  ];
  return `#!/bin/sh
# deja hook launcher, written by \`deja install\`; removed by \`deja uninstall\`.
# It finds deja each time it runs, so upgrades and moves need no config change:
# $DEJA_BIN, the command install ran from, ~/.local/bin, ~/bin, the usual
# install locations, then PATH. A hook with no deja to run prints nothing.
if [ -n "\${DEJA_BIN:-}" ] && [ -x "$DEJA_BIN" ]; then exec "$DEJA_BIN" "$@"; fi
if ${checks.join(" && ")}; then exec ${installedFrom.map(sq).join(" ")} "$@"; fi
for candidate in "$HOME/.local/bin/deja" "$HOME/bin/deja" /usr/local/bin/deja /opt/homebrew/bin/deja /usr/bin/deja; do
  if [ -x "$candidate" ]; then exec "$candidate" "$@"; fi
done
if command -v deja >/dev/null 2>&1; then exec deja "$@"; fi
case "\${1:-}" in
  hook-*) exit 0 ;;
esac
echo "deja-hook: no deja found; set DEJA_BIN or reinstall (deja install <harness>)" >&2
exit 127
`;
}
