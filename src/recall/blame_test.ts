import { equal, ok } from "node:assert/strict";
import { START, withSessions } from "./_test_kit.ts";
import { blame } from "./blame.ts";

Deno.test("blame() quotes the sentence about the file, not a bare 'Done.' before it", async () => {
  await withSessions({
    "cart-badge": [
      { role: "user", text: "show the item count on the cart icon" },
      {
        role: "edit",
        tool: "Edit",
        text: '/srv/shop-web/src/CartIcon.tsx\nreturn <Icon name="cart" />;',
      },
      {
        role: "assistant",
        text:
          "Done. Added a count badge to CartIcon.tsx that hides at zero. Build succeeded.",
      },
    ],
  }, async (db) => {
    const result = await blame(db, "CartIcon.tsx", {
      cwd: "/srv/shop-web/src",
      now: START + 86_400_000,
    });
    const entry = result.entries[0];
    ok(entry, result.why);
    equal(
      entry.decision,
      "Added a count badge to CartIcon.tsx that hides at zero.",
    );
  });
});
