import { equal } from "node:assert/strict";
import { isIrreversible } from "./irreversible.ts";

Deno.test("isIrreversible() refuses what cannot be taken back", async (t) => {
  const cases: Array<[string, boolean]> = [
    ["git push --force origin main", true],
    ["git push -f", true],
    ["git push origin +main", true],
    ["git push --force-with-lease", true],
    ["git reset --hard HEAD~2", true],
    ["git clean -fdx", true],
    ["git branch -D feature/x", true],
    ["git stash drop", true],
    ["git merge origin/main", true],
    ["rm -rf node_modules", true],
    ["rm -r build", true],
    ["psql -c 'DROP TABLE users'", true],
    ["kubectl delete pod api-0", true],
    ["helm upgrade api ./chart", true],
    ["terraform apply -auto-approve", true],
    ["npm run deploy -- --env prod", true],
    ["./scripts/migrate.sh production", true],
    ["docker compose up -d db", false],
    ["npm test", false],
    ["git push origin feature/x", false],
    ["git status", false],
    ["rm dist/index.js", false],
    ["terraform plan -no-color", false],
    ["npm run db:create-archive", false],
    ["cargo build --release", false],
  ];
  for (const [cmd, want] of cases) {
    await t.step(cmd, () => equal(isIrreversible(cmd), want));
  }
});
