import { equal, ok } from "node:assert/strict";
import { withSessions } from "../recall/_test_kit.ts";
import { idfOf, termIdf } from "./term_idf.ts";

Deno.test("termIdf() counts a term's sessions, and stops counting at the share asked", async () => {
  const said = (text: string) => [{ role: "user" as const, text }];
  await withSessions({
    a: said("restart the frontend server"),
    b: said("the frontend server crashed in the zeppelin renderer"),
    c: said("the frontend bundle is too big"),
    d: said("nothing to see here"),
  }, (db) => {
    const full = termIdf(db, ["frontend", "zeppelin", "frontend server"]);
    equal(full.sessions, 4);
    equal(full.idf[0], idfOf(3, 4));
    equal(full.idf[1], idfOf(1, 4));
    equal(full.idf[2], idfOf(2, 4), "a phrase counts where it stands whole");
    const capped = termIdf(db, ["frontend", "zeppelin"], { atMostShare: 0.25 });
    equal(capped.idf[0], idfOf(2, 4), "counting stopped at 1 + 1 sessions");
    ok((capped.idf[0] as number) >= (full.idf[0] as number));
    equal(capped.idf[1], idfOf(1, 4));
    return Promise.resolve();
  });
});
