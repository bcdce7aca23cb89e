/**
 * Questions a developer might ask later about the real transcript samples
 * (`../shared/samples`), in our own words, each with the sessions that
 * answer it (`harness:session-id`; aider ids hash the history file's
 * absolute path, so aider answers are `aider:<project>/<n>`, the n-th chat
 * in that project's history). Nothing here is copied from a sample
 * beyond a short identifier or error fragment a person would paste.
 *
 * @module
 */

/** What a question tests. */
export type QuestionKind =
  /** Plain topic lookup sharing the answer's key words. */
  | "topic"
  /** "Why did we …" / "what did we decide …". */
  | "why"
  /** Which command did something. */
  | "command"
  /** Shares no key word with the answer's wording. */
  | "paraphrase"
  /** A code identifier, file name or ticket id. */
  | "identifier"
  /** An error message pasted in. */
  | "error"
  /** A time phrase resolved against `now`. */
  | "time"
  /** Names the agent that did the work. */
  | "agent"
  /** A long prompt: a pasted log with the question under it. */
  | "long"
  /** Answered inside a sub-agent (or its parent). */
  | "subagent"
  /** The answer is only in tool output. */
  | "tool-output"
  /** Which session changed a file, and why. */
  | "file"
  /** What was settled on for something. */
  | "decision";

/** The kinds, in report order. */
export const QUESTION_KINDS: readonly QuestionKind[] = [
  "topic",
  "why",
  "command",
  "paraphrase",
  "identifier",
  "error",
  "time",
  "agent",
  "long",
  "subagent",
  "tool-output",
  "file",
  "decision",
];

/** One question and the sessions that answer it. */
export interface RealQuestion {
  /** Stable id. */
  id: string;
  /** What it tests. */
  kind: QuestionKind;
  /** The question as a person would type it. */
  text: string;
  /** `harness:session-id` of every session that answers it. */
  answers: readonly string[];
  /** The clock for this question (ISO); default {@linkcode DEFAULT_NOW}. */
  now?: string;
}

/** A few days after the newest sample session. */
export const DEFAULT_NOW = "2026-05-01T09:00:00Z";

const LOTTO = "codex:019a5b8e-a2f2-7f42-bb90-f248b42e3415";
const BUTLER_A = "codex:019ab73e-8c11-7ad2-b604-5987891db560";
const BUTLER_B = "codex:019ab760-3d78-7fd0-9ea1-4c39e889b87b";
const BUTLER_NOSPEC = "codex:019ab774-a2e4-7891-a22a-3c11d9deb235";
const BEADS = "claude-code:491e126e-1e71-469c-ade2-fcc8af567c74";
const PHX = "claude-code:55604662-cf2a-4331-851a-ec234028f8ca";
const XTERM = "claude-code:d6e0bada-1959-4eec-a9d2-0bfade768d8f";
const EXPLORE = "claude-code:a2898e3";
const COMPACT = "claude-code:acompact-e1f845";
const CONTAINER_Q = "claude-code:a39ca27e-16f9-4728-be74-7da7a9580d41";
const CONTAINER_SUB = "claude-code:abcc0f98969d4552e";
const DOCKER = "claude-code:f9b339d5-1f32-4dfd-b0fb-acbef55eb427";
const CURSOR_ALL = "cursor:2aa483d1-573c-4039-ae4e-7415e28d2605";
const POULE = "copilot-cli:d5b1506c-19d6-4e6a-818c-89a50c48bb34";
const FIGMA = "gemini:7befeae5-6b85-4b89-a3e3-c161793cc484";
const XRAY = "cline:1760000000001";
const CREDS = "cline:1760000000002";
const KIMI = "kimi:0be84c98-0aeb-48c3-aa42-0fb8330914ef";
const QWEN_AGENTS = "qwen:7e4a45d5-d379-4300-8528-fe2bb00564df";
const QWEN_JIRA = "qwen:1ee2dcce-94ce-47a3-bf6f-d804490ef247";
const QWEN_SITE = "qwen:7ff68fe9-497f-441a-b527-a47cae5b6d42";
const QWEN_FRIEND = "qwen:80a2d37c-ef84-45fc-b7d1-a34a27b3a3d8";
const ZED = "zed:c1b34853-0e99-4358-9565-7aedc0fb53eb";
const CRUSH = "crush:1c9c4c9c-6cdf-4c79-aed5-99c25ca9b8ec";
const AMP_MODEL = "amp:T-16c2227a-e98f-4969-998b-aaa50a930b05";
const QUANTUM = "opencode:ses_4343439b2ffe8vCbtGr04gHePJ";
const BROKE = "opencode:ses_44234b4aeffe6EUGUjiyzSIEZV";
const CONVENTIONS = [
  "aider:monochromatic/13",
  "aider:monochromatic/15",
  "aider:monochromatic/16",
  "aider:monochromatic/18",
  "aider:monochromatic/19",
];
const ITERABLES = [
  "aider:monochromatic/16",
  "aider:monochromatic/18",
  "aider:monochromatic/19",
];
const TRADING = [
  "aider:trading-bot/3",
  "aider:trading-bot/4",
  "aider:trading-bot/5",
];
const SETTINGS_PAGE = [
  "cursor:07210ecf-1d64-4f1c-8a61-5b4c5c974f1d",
  "cursor:a76419da-5045-4dcb-a1d4-307eab526a30",
  "cursor:aeaaa890-4b44-4136-b319-ee9803095f95",
  "cursor:ac5ce60e-1175-4349-a27f-ebe59d058fed",
  "cursor:7ab14174-a536-4e2c-98e9-8c5e28fa2006",
  CURSOR_ALL,
];
const CHUNK = [
  "cursor:e9462239-c0e0-43a0-921a-0a11f398bd70",
  "cursor:140318a5-dcb3-4c99-babc-c0ff76af7072",
  "cursor:8128434b-c308-437a-8245-048c250113ac",
  CURSOR_ALL,
];

/** Every question. */
export const QUESTIONS: readonly RealQuestion[] = [
  // topic
  {
    id: "playwright-e2e",
    kind: "topic",
    text: "where did we fix the playwright e2e tests that could not start?",
    answers: [LOTTO],
  },
  {
    id: "phx-server",
    kind: "topic",
    text: "mix phx.server would not start, which session looked at it?",
    answers: [PHX],
  },
  {
    id: "xterm-scroll",
    kind: "topic",
    text: "xterm.js scrollback with tmux not working",
    answers: [XTERM],
  },
  {
    id: "ionic-settings",
    kind: "topic",
    text: "settings page with an OpenAI API key field and a dark mode switch",
    answers: SETTINGS_PAGE,
  },
  {
    id: "unsubscribe-push",
    kind: "topic",
    text: "where did we add the button to unsubscribe from push notifications?",
    answers: [CRUSH],
  },
  {
    id: "mongoose-supabase",
    kind: "topic",
    text: "moving the mongoose models over to supabase",
    answers: [ZED],
  },
  {
    id: "telegram-files",
    kind: "topic",
    text: "fix the telegram chat so I can send files to the agent",
    answers: [KIMI],
  },
  {
    id: "surface-codes",
    kind: "topic",
    text: "surface codes for quantum error correction",
    answers: [QUANTUM],
  },
  {
    id: "shadow-git-subtask",
    kind: "topic",
    text: "subtask diffs from the shadow git checkpoints",
    answers: [XRAY],
  },
  {
    id: "flask-dashboard",
    kind: "topic",
    text: "dark themed flask dashboard with start and stop bot routes",
    answers: TRADING,
  },
  // why / decisions
  {
    id: "credo-decision",
    kind: "why",
    text: "what did we decide about the credo config?",
    answers: [BEADS],
  },
  {
    id: "pinchtab-decision",
    kind: "why",
    text: "did we decide to install PinchTab or not?",
    answers: [KIMI],
  },
  {
    id: "butler-no-spec",
    kind: "why",
    text: "why did butler-exec stop and ask which spec to run?",
    answers: [BUTLER_NOSPEC],
  },
  {
    id: "docker-access-denied",
    kind: "why",
    text: "why was access denied when adding the user to the docker group?",
    answers: [DOCKER],
  },
  {
    id: "backend-index-html",
    kind: "why",
    text: "why was the backend container complaining about index.html?",
    answers: [CRUSH],
  },
  {
    id: "agents-not-listed",
    kind: "why",
    text: "why don't my custom agents show up under /agents manage?",
    answers: [QWEN_AGENTS],
  },
  // command
  {
    id: "lockfile-regen",
    kind: "command",
    text: "which command regenerated the lockfile?",
    answers: [CRUSH],
  },
  {
    id: "docker-users-cmd",
    kind: "command",
    text: "which command added me to the docker-users group?",
    answers: [DOCKER],
  },
  {
    id: "devcontainer-image",
    kind: "command",
    text:
      "which image did we docker pull for the typescript node dev container?",
    answers: [DOCKER],
  },
  {
    id: "python-http-server",
    kind: "command",
    text: "what's the one-liner to serve a folder over http with python?",
    answers: ["cursor:f73a2965-5b2c-403b-a625-d347ab7107a1"],
  },
  {
    id: "cross-env",
    kind: "command",
    text: "what did we npm install so the e2e script could set NODE_PATH?",
    answers: [LOTTO],
  },
  // paraphrase
  {
    id: "mockups-into-repo",
    kind: "paraphrase",
    text: "when did we commit the design mockup pictures for the lottery page?",
    answers: [LOTTO],
  },
  {
    id: "static-analysis-elixir",
    kind: "paraphrase",
    text:
      "did we plan linting, type checking and vulnerability audits for the elixir app?",
    answers: [BEADS],
  },
  {
    id: "navy-header",
    kind: "paraphrase",
    text: "where did we make the top bar dark blue on every screen?",
    answers: [
      "cursor:6061380b-a877-4ff8-89a9-31daaa9b357a",
      "cursor:7be608e0-b251-4d1c-ac8c-2b14ef2cdf55",
      "cursor:b2ee92b8-c589-40ff-9dff-bf3b8f792ff9",
      CURSOR_ALL,
    ],
  },
  {
    id: "font-grows",
    kind: "paraphrase",
    text: "the text got larger after pressing return in the console screen",
    answers: ["cursor:7b9c967e-7708-41ea-aacc-37927ebf3513", CURSOR_ALL],
  },
  {
    id: "dev-login",
    kind: "paraphrase",
    text:
      "which username do I sign in with on the development server, per that mail?",
    answers: [CREDS],
  },
  {
    id: "seed-football",
    kind: "paraphrase",
    text: "did we write seed data for the football prediction app?",
    answers: [POULE],
  },
  {
    id: "semver-bump",
    kind: "paraphrase",
    text: "what release number did we pick for the next image, patch or minor?",
    answers: [CRUSH],
  },
  {
    id: "quota-left",
    kind: "paraphrase",
    text: "how many calls per day am I allowed on the free qwen login?",
    answers: [QWEN_AGENTS],
  },
  {
    id: "site-offline",
    kind: "paraphrase",
    text: "the agent could not open my web site, it looked offline",
    answers: [QWEN_SITE],
  },
  // identifier
  {
    id: "bead-id",
    kind: "identifier",
    text: "spotter-0p7",
    answers: [BEADS],
  },
  {
    id: "docstring-fn",
    kind: "identifier",
    text: "collect_advanced_cleanup_ideas",
    answers: [BUTLER_A, BUTLER_B],
  },
  {
    id: "union-async",
    kind: "identifier",
    text: "where did we write unionIterablesAsync?",
    answers: ITERABLES,
  },
  {
    id: "subtask-doc",
    kind: "identifier",
    text: "SUBTASK_FIX.md",
    answers: [XRAY],
  },
  {
    id: "jira-ticket",
    kind: "identifier",
    text: "CHR-48347",
    answers: [QWEN_JIRA],
  },
  {
    id: "ash-computer",
    kind: "identifier",
    text: "AshComputer.LiveView in PaneListLive",
    answers: [EXPLORE, COMPACT],
  },
  {
    id: "containerfile-backend",
    kind: "identifier",
    text: "Containerfile.backend",
    answers: [CRUSH],
  },
  // error
  {
    id: "err-playwright-module",
    kind: "error",
    text: "Error: Cannot find module '@playwright/test'",
    answers: [LOTTO],
  },
  {
    id: "err-ngclass",
    kind: "error",
    text:
      "NG8002: Can't bind to 'ngClass' since it isn't a known property of 'div'",
    answers: ["cursor:484448da-b049-4d46-b17a-4a3eaf473ad0"],
  },
  {
    id: "err-chunk",
    kind: "error",
    text: "ChunkLoadError: Loading chunk 179 failed",
    answers: CHUNK,
  },
  {
    id: "err-sdk",
    kind: "error",
    text: "native-run failed with error ERR_SDK_NOT_FOUND",
    answers: ["cursor:33d81a85-badb-4f6e-99b9-96da6038cde9"],
  },
  {
    id: "err-no-image",
    kind: "error",
    text: "Error: No image information specified in devcontainer.json",
    answers: [DOCKER],
  },
  {
    id: "err-econnrefused",
    kind: "error",
    text: "http proxy error: /api/vapidPublicKey ECONNREFUSED",
    answers: [CRUSH],
  },
  {
    id: "err-member-function",
    kind: "error",
    text:
      "Uncaught Error: Call to a member function on null in database.class.php",
    answers: [POULE],
  },
  {
    id: "err-balance",
    kind: "error",
    text: "AI_APICallError: Insufficient Balance",
    answers: [QUANTUM, BROKE],
  },
  // time (relative to the question's now)
  {
    id: "time-last-week-server",
    kind: "time",
    text:
      "last week the trading dashboard server would not load, what was wrong?",
    answers: ["aider:trading-bot/4", "aider:trading-bot/5"],
  },
  {
    id: "time-june-conventions",
    kind: "time",
    text: "what did we change in the conventions doc in june?",
    answers: CONVENTIONS,
    now: "2025-08-15T09:00:00Z",
  },
  {
    id: "time-yesterday-telegram",
    kind: "time",
    text: "what did we do yesterday about telegram?",
    answers: [KIMI],
    now: "2026-03-05T10:00:00Z",
  },
  {
    id: "time-march-devserver",
    kind: "time",
    text:
      "in march, how did we get the dev server running without the container?",
    answers: [DOCKER],
  },
  {
    id: "time-two-weeks-subtasks",
    kind: "time",
    text: "two weeks ago we added subtasks to the task viewer, how?",
    answers: [XRAY],
    now: "2026-02-22T12:00:00Z",
  },
  {
    id: "time-november-chunk",
    kind: "time",
    text:
      "in november 2024 the settings page failed to load lazily, what was the fix?",
    answers: CHUNK,
  },
  // agent named
  {
    id: "agent-codex-docstring",
    kind: "agent",
    text: "what did codex do about the missing docstring spec?",
    answers: [BUTLER_A, BUTLER_B],
  },
  {
    id: "agent-aider-markdown",
    kind: "agent",
    text: "what did aider add to CONVENTIONS.md about markdown lists?",
    answers: ["aider:monochromatic/16", "aider:monochromatic/19"],
  },
  {
    id: "agent-copilot-migrations",
    kind: "agent",
    text: "what did copilot do for the poule database migrations?",
    answers: [POULE],
  },
  {
    id: "agent-gemini-figma",
    kind: "agent",
    text: "what did gemini build from the figma design?",
    answers: [FIGMA],
  },
  {
    id: "agent-amp-model",
    kind: "agent",
    text: "how do I change which model amp uses?",
    answers: [AMP_MODEL],
  },
  {
    id: "agent-qwen-mcp",
    kind: "agent",
    text: "when did we set up the mcp server in qwen?",
    answers: [QWEN_AGENTS],
  },
  {
    id: "agent-cline-creds",
    kind: "agent",
    text: "what did cline say about the email thread?",
    answers: [CREDS],
  },
  // long prompts: a pasted log, then the question
  {
    id: "long-devcontainer-log",
    kind: "long",
    text: [
      "[310 ms] Dev Containers extension starting in VS Code",
      "[402 ms] Start: Run: wsl -l -v",
      "[1200 ms] Start: Run: docker version --format {{.Server.APIVersion}}",
      "[1900 ms] Start: Resolving remote",
      "[2100 ms] Error: No image information specified in devcontainer.json.",
      "[2101 ms] Exit code 1",
      "",
      "the container keeps failing to build with the output above, how did we fix it before?",
    ].join("\n"),
    answers: [DOCKER],
  },
  {
    id: "long-npm-ci-log",
    kind: "long",
    text: [
      "#9 [builder 4/7] RUN npm ci",
      "#9 2.91 npm error code EUSAGE",
      "#9 2.91 npm error The `npm ci` command can only install when package.json and the lock file agree.",
      "#9 2.91 npm error Missing: @types/express from lock file",
      "#9 ERROR: process did not complete successfully: exit code: 1",
      "",
      "the build-backend job in CI fails like this again. what did we change last time?",
    ].join("\n"),
    answers: [CRUSH],
  },
  {
    id: "long-webpack-log",
    kind: "long",
    text: [
      "[webpack-dev-server] Errors while compiling. Reload prevented.",
      "Module build failed (from ./node_modules/@ngtools/webpack/src/ivy/index.js):",
      "Error: src/app/settings/settings.page.ts is missing from the TypeScript compilation.",
      "Please make sure it is in your tsconfig via the 'files' or 'include' property.",
      "",
      "ionic serve shows this after adding the new page. how was it solved?",
    ].join("\n"),
    answers: [
      "cursor:a76419da-5045-4dcb-a1d4-307eab526a30",
      "cursor:07210ecf-1d64-4f1c-8a61-5b4c5c974f1d",
      ...CHUNK,
    ],
  },
  // sub-agents
  {
    id: "sub-transcript-render",
    kind: "subagent",
    text: "how do SessionLive and SubagentLive render transcripts differently?",
    answers: [EXPLORE, COMPACT],
  },
  {
    id: "sub-docker-files",
    kind: "subagent",
    text:
      "where did we look for docker-compose and devcontainer.json files in the user folder?",
    answers: [CONTAINER_SUB, CONTAINER_Q],
  },
  {
    id: "sub-wsl",
    kind: "subagent",
    text: "were we in a container or in WSL?",
    answers: [CONTAINER_Q, DOCKER, CONTAINER_SUB],
  },
  // the answer is only in tool output
  {
    id: "tool-ps-denied",
    kind: "tool-output",
    text: "/bin/ps: Operation not permitted",
    answers: [
      BUTLER_A,
      BUTLER_B,
      BUTLER_NOSPEC,
      "codex:019ab730-4906-7b12-8569-c53c5dde1150",
      "codex:019ab737-4612-7f91-bf54-c6a3b3870ee6",
    ],
  },
  {
    id: "tool-figma-429",
    kind: "tool-output",
    text: "figma api rate limit exceeded 429",
    answers: [FIGMA],
  },
  {
    id: "tool-refused-join",
    kind: "tool-output",
    text: "REFUSED JOIN terminal",
    answers: [XTERM],
  },
  {
    id: "tool-redeclare",
    kind: "tool-output",
    text: "Cannot redeclare block-scoped variable 'STATIC_DIR'",
    answers: [CRUSH],
  },
  {
    id: "agents-count",
    kind: "topic",
    text: "how many agents do I have configured?",
    answers: [QWEN_FRIEND, QWEN_AGENTS],
  },
  // more paraphrase, time and agent questions with little word overlap
  {
    id: "e2e-resolve-outside",
    kind: "paraphrase",
    text:
      "how did the end-to-end runner find its packages from outside the web app folder?",
    answers: [LOTTO],
  },
  {
    id: "windows-group",
    kind: "paraphrase",
    text: "which windows group did I have to join before containers would run?",
    answers: [DOCKER],
  },
  {
    id: "amp-llm",
    kind: "paraphrase",
    text: "which LLM was the assistant running on in amp?",
    answers: [AMP_MODEL],
  },
  {
    id: "k8s-plan",
    kind: "paraphrase",
    text: "k8s rollout plan for the timer app",
    answers: [CRUSH],
  },
  {
    id: "phone-same-wifi",
    kind: "paraphrase",
    text: "how can someone try the app on a phone on our home wifi?",
    answers: [CRUSH],
  },
  {
    id: "convert-agent-format",
    kind: "topic",
    text: "convert the claude style agent files to the qwen format",
    answers: [QWEN_AGENTS],
  },
  {
    id: "agent-opencode-quantum",
    kind: "agent",
    text: "did opencode ever answer the quantum computing question?",
    answers: [QUANTUM],
  },
  {
    id: "time-date-devcontainer",
    kind: "time",
    text: "what happened with the devcontainer on 4 march 2026?",
    answers: [DOCKER, CONTAINER_Q, CONTAINER_SUB],
  },
  {
    id: "time-this-month-poule",
    kind: "time",
    text: "earlier this month, what did we set up for the football pool site?",
    answers: [POULE],
    now: "2026-03-28T12:00:00Z",
  },
  {
    id: "err-invalid-key",
    kind: "error",
    text: "Invalid API key · Please run /login",
    answers: ["claude-code:52a0d74b-c7be-40c4-b88b-519858d4125b"],
  },
  {
    id: "tool-rejected-run",
    kind: "tool-output",
    text: "I rejected the tool call that tried to run the phoenix server",
    answers: [PHX],
  },
  {
    id: "sub-compact-epic",
    kind: "subagent",
    text: "summary of the unified transcript epic spotter-dov",
    answers: [COMPACT, EXPLORE],
  },
];
