import { equal } from "node:assert/strict";
import { failureAsked } from "./_agent_failures.ts";

Deno.test("failureAsked() reads a failed model call a question describes, and nothing else", () => {
  for (
    const [ask, kind] of [
      [
        "the chats where the assistant never answered because my prepaid credit had run dry",
        "billing",
      ],
      [
        "every single message failed cause the account had no credit left",
        "billing",
      ],
      ["said hi and claude just told me to log in again", "auth"],
      [
        "which aider attempt died because it couldn't find login credentials",
        "auth",
      ],
      ["the vertex quota error in aider", "rate"],
      ["aider on vertex kept getting throttled with 429s", "rate"],
      ["provider error saying account balance ran out", "billing"],
      ["local ollama model wants more RAM than the box has", "memory"],
      ["claude code said my api key was bad, what was I to run?", "auth"],
    ] as const
  ) equal(failureAsked(ask), kind, ask);
  for (
    const other of [
      "where do we store the user's credit card?",
      "add a login page to the app",
      "one figma MCP call came back with a 429 rate limit",
      "why does the balance sheet export fail on the server?",
      "the account settings page",
      "the stripe api key was invalid and the webhook failed",
      "the pricing plan payment failed for that account",
      "the payment provider error said the balance ran out",
      "auth provider error: the login expired",
      "the image worker needs more memory, it keeps getting OOM killed",
      "why does the build need more RAM now?",
      "the stripe api key in the config was wrong",
    ]
  ) equal(failureAsked(other), undefined, other);
});
