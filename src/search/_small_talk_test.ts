import { deepEqual, equal } from "node:assert/strict";
import { greetingAsked, greetingLanguage, greetingOf } from "./_small_talk.ts";

Deno.test("greetingAsked() reads a greeting a question describes, and nothing else", () => {
  deepEqual(greetingAsked("the amp thread where I just said hi"), {
    kind: "hello",
  });
  deepEqual(
    greetingAsked("I asked opencode how it was doing and never got a reply"),
    { kind: "how-are-you", replied: false },
  );
  deepEqual(
    greetingAsked("I greeted claude in Japanese and it actually replied"),
    { language: "japanese", replied: true },
  );
  deepEqual(greetingAsked("it was only a greeting, nothing else"), {});
  deepEqual(
    greetingAsked("said hi in japanese and it just told me to log in again"),
    { kind: "hello", language: "japanese" },
  );
  deepEqual(
    greetingAsked("typed hello, it asked what I needed, and that was it"),
    { kind: "hello", replied: true },
  );
  deepEqual(
    greetingAsked("the codex chat where all I typed was the word shell"),
    { typed: "shell" },
  );
  deepEqual(
    greetingAsked("codex chat where my entire message was a single slash"),
    { typed: "/" },
  );
  deepEqual(greetingAsked('I only typed "/review" and left'), {
    typed: "/review",
  });
  deepEqual(greetingAsked("all I typed was hi"), { kind: "hello" });
  // A greeting named by its language, or the person's own.
  deepEqual(
    greetingAsked(
      "the Japanese hello in the devcontainer where Claude actually answered back",
    ),
    { kind: "hello", language: "japanese", replied: true },
  );
  deepEqual(greetingAsked("my first greeting errored out"), { kind: "hello" });
  deepEqual(greetingAsked("the japanese hellos thread"), {
    kind: "hello",
    language: "japanese",
  });
  deepEqual(
    greetingAsked("the chat where my entire prompt was the single word shell"),
    { typed: "shell" },
  );
  // Another language's greeting, in its script or Latin letters, said or
  // naming the session; a reply got.
  deepEqual(greetingAsked("konnichiwa chat that actually got answered"), {
    kind: "hello",
    language: "japanese",
    replied: true,
  });
  deepEqual(greetingAsked("the chat where I said こんにちは"), {
    kind: "hello",
    language: "japanese",
  });
  deepEqual(greetingAsked("ni hao thread with no reply"), {
    kind: "hello",
    language: "chinese",
    replied: false,
  });
  for (
    const other of [
      "translate konnichiwa in the i18n file",
      "the string こんにちは shows as mojibake",
      "I just typed the command and it failed",
      "where is the hello world example",
      "why did the greeter service crash",
      "the copilot page that opens with a default AI greeting",
      "translate the greeting on the landing page",
      "we added a /hello endpoint that says hi",
      "how are you handling retries in the worker",
      "say what the hi-res images are for",
      "what did we decide about the redis client",
      // A greeting and then more: no session of only a greeting.
      "the amp thread where after saying hi I asked which model it runs",
    ]
  ) equal(greetingAsked(other), undefined, other);
});

Deno.test("greetingOf() takes a prompt that is only a greeting", () => {
  for (
    const hello of [
      "hi",
      "Hi!",
      "hello",
      "hey there",
      "hola",
      "こんにちは",
      "你好",
      "안녕하세요",
      "hi claude",
      "konnichiwa",
      "ni hao!",
      "ohayou",
      "annyeonghaseyo",
    ]
  ) {
    equal(greetingOf(hello), "hello", hello);
  }
  for (
    const how of [
      "How are you",
      "how are you doing today?",
      "hi, how are you",
      "what's up",
    ]
  ) {
    equal(greetingOf(how), "how-are-you", how);
  }
  for (
    const other of [
      "hi, can you fix the login page?",
      "hello world",
      "history of the repo",
      "heyday",
      "",
      "hi ".repeat(20),
    ]
  ) equal(greetingOf(other), undefined, other);
});

Deno.test("greetingLanguage() names a greeting's language by its script or word", () => {
  equal(greetingLanguage("こんにちは"), "japanese");
  equal(greetingLanguage("你好"), "chinese");
  equal(greetingLanguage("안녕"), "korean");
  equal(greetingLanguage("bonjour !"), "french");
  equal(greetingLanguage("konnichiwa"), "japanese");
  equal(greetingLanguage("ni hao"), "chinese");
  equal(greetingLanguage("hello"), undefined);
  equal(greetingLanguage("constructor"), undefined);
});

Deno.test("greetingAsked() reads a greeting described in the asker's own language", () => {
  deepEqual(
    greetingAsked("日本語で挨拶したら日本語と英語の両方で返してくれたやり取り"),
    { kind: "hello", language: "japanese", replied: true },
  );
  deepEqual(
    greetingAsked("こんにちはと挨拶して普通に返事があったセッションは？"),
    {
      kind: "hello",
      language: "japanese",
      replied: true,
    },
  );
  deepEqual(greetingAsked("인사만 했는데 답이 없던 대화"), {
    kind: "hello",
    replied: false,
  });
  deepEqual(greetingAsked("我用中文跟它打招呼的那次"), {
    kind: "hello",
    language: "chinese",
  });
  // A greeting as a thing made is none said.
  equal(greetingAsked("挨拶文のテンプレートを作った"), undefined);
});
