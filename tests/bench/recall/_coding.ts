/**
 * Coding episodes for the recall eval: each is one Claude Code session with
 * a distinctive outcome, the questions someone would later ask about it, and
 * the nouns its look-alike distractor sessions share. Invented projects,
 * paths and people.
 *
 * Turn shorthand: `u` user, `a` assistant, `$` a Bash call (command, then
 * its output after the first newline).
 *
 * @module
 */

/** One turn of a generated session. */
export type Turn = { u: string } | { a: string } | { $: string };

/** A coding episode. */
export interface CodingEpisode {
  key: string;
  project: string;
  turns: Turn[];
  /** Distinctive words, as typed by someone who remembers them. */
  exact: string;
  /** Questions asked in other words. */
  rephrased: string[];
  /** A phrase said verbatim in the session (quoted when asked). */
  phrase: string;
  /** An identifier query in the other spelling from the session's. */
  identifier?: string;
  /** Words distractor sessions share with this one. */
  nouns: string[];
}

/** The coding episodes. */
export const CODING: CodingEpisode[] = [
  {
    key: "redis-pin",
    project: "api",
    turns: [
      {
        u: "ioredis keeps dropping connections in cluster mode since the dependency bump, the orders endpoint times out every few minutes. can you look?",
      },
      {
        a: "Let me check which version of the Redis client is installed and how the cluster client is created.",
      },
      {
        $: "npm ls ioredis\norders-api@1.4.0 /home/dev/src/api\n└── ioredis@5.4.1",
      },
      {
        a: "The bump pulled ioredis 5.4.1. Its changelog says cluster mode now refreshes slots lazily, and our createRedisClient helper sets enableOfflineQueue to false, so commands issued during a slot refresh fail instead of waiting.",
      },
      { u: "ok so what do we do, I don't want to rewrite the helper today" },
      {
        a: "We pinned ioredis to 5.3.2 in package.json with an exact version and added a comment linking the upstream issue. Once upstream ships the fix we can unpin. The timeouts are gone locally after the downgrade.",
      },
    ],
    exact: "ioredis cluster pinned 5.3.2",
    rephrased: [
      "why did we pin the redis client version?",
      "what went wrong with the ioredis upgrade and how did we handle it",
    ],
    phrase: "dropping connections in cluster mode",
    identifier: "create_redis_client helper",
    nouns: ["redis", "cluster", "connection", "timeout", "client", "version"],
  },
  {
    key: "euwest-cert",
    project: "infra",
    turns: [
      {
        u: "the deploy to eu-west-1 broke this morning, cloudfront says the certificate is invalid. staging in us-east-1 is fine",
      },
      {
        $: "terraform plan -target=module.cdn_eu\nError: InvalidViewerCertificate: The specified SSL certificate doesn't exist, isn't in us-east-1 region",
      },
      {
        a: "Root cause: CloudFront only accepts ACM certificates issued in us-east-1, whatever region the distribution serves. The eu module requested its certificate in eu-west-1.",
      },
      { u: "so we need a second provider?" },
      {
        a: "Yes. I added an aliased aws provider for us-east-1 in the cdn module and moved the aws_acm_certificate there, then redeployed the European distribution. The viewer certificate validates now.",
      },
    ],
    exact: "cloudfront acm certificate us-east-1 eu-west-1",
    rephrased: [
      "when the deploy to eu-west broke, what was the cause?",
      "why did the european cdn deployment fail",
    ],
    phrase: "only accepts ACM certificates issued in us-east-1",
    nouns: ["deploy", "certificate", "region", "terraform", "provider", "cdn"],
  },
  {
    key: "flaky-usermenu",
    project: "web",
    turns: [
      {
        u: "UserMenu.test.tsx fails maybe one run in five on CI, never locally. it's blocking merges",
      },
      {
        $: "npx vitest run src/components/UserMenu.test.tsx --repeat 20\nFAIL src/components/UserMenu.test.tsx > closes the dropdown after the delay\nAssertionError: expected element to be hidden",
      },
      {
        a: "The dropdown closes through a 300 ms setTimeout and the test waits with a real sleep, so a slow CI runner loses the race.",
      },
      {
        a: "Fixed it by switching the test to fake timers: vi.useFakeTimers() in beforeEach and vi.advanceTimersByTime(300) instead of the sleep. 200 repeated runs pass now.",
      },
    ],
    exact: "UserMenu flaky fake timers advanceTimersByTime",
    rephrased: [
      "how did we fix the flaky user menu test",
      "the dropdown test that failed intermittently on CI — what was the fix?",
    ],
    phrase: "switching the test to fake timers",
    identifier: "user menu test",
    nouns: ["test", "flaky", "ci", "timer", "dropdown", "component"],
  },
  {
    key: "migration-lock",
    project: "api",
    turns: [
      {
        u: "the migration that adds the index on orders.customer_id locked the orders table for 4 minutes in production, checkout was down. what happened?",
      },
      {
        a: "A plain CREATE INDEX takes a SHARE lock that blocks writes for the whole build. On a 40 million row table that is minutes.",
      },
      {
        $: "psql -c \"select relname, n_live_tup from pg_stat_user_tables where relname = 'orders'\"\n relname | n_live_tup\n orders  |   40211873",
      },
      {
        a: "From now on index migrations use CREATE INDEX CONCURRENTLY, which cannot run inside a transaction, so I split it into its own migration file with the transaction disabled. I also added a lint rule to the migration checker that rejects a non-concurrent index on large tables.",
      },
    ],
    exact: "create index concurrently orders customer_id lock",
    rephrased: [
      "why was checkout down during the database migration",
      "what did we change about adding indexes after the table lock incident?",
    ],
    phrase: "locked the orders table for 4 minutes",
    nouns: ["migration", "index", "postgres", "table", "lock", "orders"],
  },
  {
    key: "vite-admin",
    project: "web",
    turns: [
      {
        u: "let's move the build from webpack to vite, cold builds take 90 seconds",
      },
      {
        $: "npx vite build\nvite v5.4.2 building for production...\n✓ 812 modules transformed.\nbuilt in 11.42s",
      },
      {
        a: "The storefront builds in 11 seconds with vite. The legacy admin bundle relies on webpack module federation and a custom loader for the old templates.",
      },
      { u: "porting the admin is not worth it right now" },
      {
        a: "Agreed, we decided to keep webpack for the legacy admin bundle only and build everything else with vite. The two configs live side by side until the admin is retired.",
      },
    ],
    exact: "vite webpack legacy admin bundle module federation",
    rephrased: [
      "did we move everything off webpack?",
      "why is the admin still built with webpack",
    ],
    phrase: "keep webpack for the legacy admin bundle",
    nouns: ["webpack", "vite", "build", "bundle", "config", "admin"],
  },
  {
    key: "kafka-lag",
    project: "worker",
    turns: [
      {
        u: "consumer lag on the invoices topic keeps growing, 2 million messages behind",
      },
      {
        $: "kafka-consumer-groups --describe --group invoice-workers\nTOPIC     PARTITION  LAG\ninvoices  0          712004\ninvoices  1          698311\ninvoices  2          701877",
      },
      {
        a: "Each poll returns max.poll.records=2000 and processing a batch takes longer than max.poll.interval.ms, so the group keeps rebalancing and redoing work.",
      },
      {
        a: "We set max.poll.records to 200 and raised the invoices topic from 3 to 12 partitions so more consumers can share the load. Lag is draining at about 40k messages a minute.",
      },
    ],
    exact: "max.poll.records 200 invoices partitions rebalancing",
    rephrased: [
      "what did we do about the consumer lag on invoices?",
      "why did the kafka group keep rebalancing",
    ],
    phrase: "the group keeps rebalancing and redoing work",
    identifier: "maxPollRecords",
    nouns: ["kafka", "consumer", "topic", "batch", "partition", "worker"],
  },
  {
    key: "jwt-skew",
    project: "auth",
    turns: [
      {
        u: "some users get 401 right after login, the error says token not yet valid",
      },
      {
        a: "The iat claim is a second or two ahead of the API servers' clocks; jose rejects a token whose nbf is in the future.",
      },
      {
        $: "chronyc tracking\nSystem time     : 1.873 seconds fast of NTP time",
      },
      {
        a: "I added a 30 second clockTolerance to jwtVerify and filed a ticket to fix NTP on the auth hosts. The nbf rejections stopped.",
      },
    ],
    exact: "jwt nbf clockTolerance 30 seconds not yet valid",
    rephrased: [
      "why were users getting 401 just after logging in?",
      "how did we deal with clock skew on tokens",
    ],
    phrase: "token not yet valid",
    identifier: "clock_tolerance",
    nouns: ["token", "login", "auth", "401", "clock", "jwt"],
  },
  {
    key: "bucket-import",
    project: "infra",
    turns: [
      {
        u: "terraform plan wants to destroy and recreate the assets bucket, that would delete everything!",
      },
      {
        $: 'terraform plan\n  # aws_s3_bucket.assets must be replaced\n-/+ resource "aws_s3_bucket" "assets" {\n      ~ region = "us-east-1" -> "eu-central-1" # forces replacement',
      },
      {
        a: "The provider default region changed, so terraform thinks the bucket lives elsewhere. Nothing should be recreated.",
      },
      {
        a: "We removed the bucket from state and ran terraform import against the existing bucket with an explicit provider for us-east-1. The plan shows no changes now.",
      },
    ],
    exact: "terraform import assets bucket forces replacement",
    rephrased: [
      "how did we stop terraform from recreating the s3 bucket",
      "the plan that wanted to replace the assets bucket — what did we do?",
    ],
    phrase: "wants to destroy and recreate the assets bucket",
    nouns: ["terraform", "bucket", "region", "state", "plan", "provider"],
  },
  {
    key: "lru-leak",
    project: "worker",
    turns: [
      {
        u: "the image worker's memory grows until it gets OOM killed every 6 hours",
      },
      {
        $: "node --inspect dist/worker.js & sleep 600; curl -s localhost:9229/json\nheap snapshot: Map imageResizeCache 1.6 GB retained",
      },
      {
        a: "imageResizeCache is a plain Map keyed by URL and size and nothing ever evicts from it.",
      },
      {
        a: "Replaced it with an LRU cache capped at 500 entries with a 10 minute TTL. Memory stays flat around 300 MB under the load test.",
      },
    ],
    exact: "imageResizeCache LRU 500 entries OOM",
    rephrased: [
      "what caused the memory leak in the image worker?",
      "why did the resize worker keep getting killed for running out of memory",
    ],
    phrase: "nothing ever evicts from it",
    identifier: "image resize cache",
    nouns: ["memory", "cache", "worker", "image", "heap", "leak"],
  },
  {
    key: "login-ratelimit",
    project: "api",
    turns: [
      {
        u: "we're seeing credential stuffing on /login, thousands of attempts per minute from a few IPs",
      },
      {
        a: "I'll add a token bucket rate limiter in front of the login route, keyed by client IP and by account.",
      },
      {
        a: "Done: 5 attempts per minute per IP and 10 per hour per account, with a Retry-After header on 429. The limiter state lives in Redis so every replica shares it.",
      },
    ],
    exact: "token bucket rate limiter login 429 Retry-After",
    rephrased: [
      "what limits did we put on login attempts?",
      "how are we protecting the login endpoint from credential stuffing",
    ],
    phrase: "5 attempts per minute per IP",
    nouns: ["login", "rate", "limit", "redis", "ip", "route"],
  },
  {
    key: "cors-patch",
    project: "web",
    turns: [
      {
        u: "saving the profile form fails in the browser with a CORS error but curl works",
      },
      {
        $: "curl -i -X OPTIONS https://api.dev.local/profile -H 'Access-Control-Request-Method: PATCH'\nHTTP/1.1 204 No Content\nAccess-Control-Allow-Methods: GET,POST,PUT,DELETE",
      },
      {
        a: "The preflight for PATCH is answered without PATCH in Access-Control-Allow-Methods, so the browser blocks the real request. curl never sends a preflight.",
      },
      {
        a: "Added PATCH to allowedMethods in the cors middleware config. The form saves now.",
      },
    ],
    exact: "cors preflight PATCH allowedMethods",
    rephrased: [
      "why did saving the profile fail only in the browser?",
      "what was missing from the cors configuration",
    ],
    phrase: "curl never sends a preflight",
    identifier: "allowed_methods",
    nouns: ["cors", "browser", "request", "middleware", "profile", "form"],
  },
  {
    key: "compose-5433",
    project: "api",
    turns: [
      { u: "docker compose up fails, port 5432 is already allocated" },
      {
        $: "docker compose up -d db\nError response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:5432 failed: port is already allocated",
      },
      {
        a: "A Postgres installed with Homebrew is listening on 5432. Rather than stopping it every time, we mapped the compose database to host port 5433 and updated DATABASE_URL in .env.example.",
      },
    ],
    exact: "docker compose postgres 5433 port already allocated",
    rephrased: [
      "which host port does the local database container use now?",
      "how did we get around the postgres port clash with homebrew",
    ],
    phrase: "mapped the compose database to host port 5433",
    nouns: ["docker", "compose", "port", "postgres", "database", "container"],
  },
  {
    key: "ci-cache-key",
    project: "infra",
    turns: [
      {
        u: "CI keeps running with old dependencies after we update package-lock, builds pass locally but fail in actions",
      },
      {
        a: "The actions/cache key is just the OS name, so every run restores the first node_modules ever cached.",
      },
      {
        a: "The key now includes hashFiles('**/package-lock.json') with a restore key prefix as fallback. A lockfile change produces a fresh cache.",
      },
    ],
    exact: "actions cache key hashFiles package-lock",
    rephrased: [
      "why did CI use stale dependencies?",
      "what did we change in the github actions cache",
    ],
    phrase: "restores the first node_modules ever cached",
    nouns: ["ci", "cache", "actions", "dependencies", "build", "lockfile"],
  },
  {
    key: "auckland-invoices",
    project: "billing",
    turns: [
      {
        u: "customers in Auckland get invoices dated the day before they paid",
      },
      {
        a: "Invoice dates are computed with the server's local timezone (UTC) and then truncated to a date, so anyone ahead of UTC sees the previous day.",
      },
      {
        a: "We now store the timestamp in UTC and format the invoice date in the customer's own timezone from their billing profile. Added tests for Pacific/Auckland and America/Los_Angeles.",
      },
    ],
    exact: "invoice date timezone Pacific/Auckland",
    rephrased: [
      "why were some invoices dated the wrong day?",
      "how did we fix the invoice date bug for new zealand customers",
    ],
    phrase: "dated the day before they paid",
    nouns: ["invoice", "timezone", "date", "billing", "customer", "utc"],
  },
  {
    key: "stripe-raw-body",
    project: "billing",
    turns: [
      {
        u: "every stripe webhook fails signature verification since we added the json body parser globally",
      },
      {
        a: "constructEvent needs the exact raw bytes Stripe signed; once express.json() has parsed and re-serialized the body the signature no longer matches.",
      },
      {
        a: "Mounted express.raw({ type: 'application/json' }) on the /webhooks/stripe route before the global parser. Signatures verify again and the retries drained.",
      },
    ],
    exact: "stripe webhook signature raw body constructEvent",
    rephrased: [
      "why did stripe webhooks start failing verification?",
      "what broke payment webhooks after the body parser change",
    ],
    phrase: "the exact raw bytes Stripe signed",
    identifier: "construct event",
    nouns: ["webhook", "stripe", "signature", "payment", "route", "parser"],
  },
  {
    key: "feature-flag-env",
    project: "web",
    turns: [
      {
        u: "we need a way to turn the new checkout on for staff only before launch. do we buy a feature flag service?",
      },
      {
        a: "For one flag a service is overkill. An environment flag plus a staff check covers it.",
      },
      {
        a: "We went with FEATURE_NEW_CHECKOUT read at startup plus an isStaff check in the checkout route; no third-party flag service for now. We'll revisit if we need more than a handful of flags.",
      },
    ],
    exact: "FEATURE_NEW_CHECKOUT staff flag",
    rephrased: [
      "did we decide to buy a feature flag service?",
      "how is the new checkout hidden from customers before launch",
    ],
    phrase: "no third-party flag service for now",
    identifier: "feature new checkout",
    nouns: ["feature", "flag", "checkout", "launch", "staff", "service"],
  },
  {
    key: "keyset-pagination",
    project: "search",
    turns: [
      { u: "page 400 of the product list takes 9 seconds" },
      {
        $: "psql -c 'explain analyze select * from products order by created_at desc offset 40000 limit 100'\nExecution Time: 9012.441 ms",
      },
      {
        a: "OFFSET makes Postgres walk and discard every earlier row. Deep pages get linearly slower.",
      },
      {
        a: "Switched the endpoint to keyset pagination: the cursor encodes (created_at, id) of the last row and the next page filters on it. Page 400 takes 12 ms.",
      },
    ],
    exact: "keyset pagination cursor created_at offset",
    rephrased: [
      "why were deep pages of the product list so slow?",
      "how does pagination work on the products endpoint now",
    ],
    phrase: "walk and discard every earlier row",
    nouns: ["pagination", "products", "query", "page", "cursor", "postgres"],
  },
  {
    key: "es-sku-keyword",
    project: "search",
    turns: [
      {
        u: "searching for an exact sku like AB-1234 returns hundreds of unrelated products",
      },
      {
        a: "The sku field is mapped as analyzed text, so AB-1234 is split into ab and 1234 and matches anything with either token.",
      },
      {
        a: "Changed the mapping of sku to keyword, created products_v7 and reindexed with an alias swap. Exact sku lookups return one product.",
      },
    ],
    exact: "elasticsearch sku keyword mapping reindex",
    rephrased: [
      "why did exact sku searches return unrelated products?",
      "what did we change in the product index mapping",
    ],
    phrase: "matches anything with either token",
    nouns: ["search", "products", "index", "mapping", "elasticsearch", "field"],
  },
  {
    key: "apns-env",
    project: "mobile",
    turns: [
      {
        u: "push notifications work in testflight builds but not from the app store version",
      },
      {
        a: "Store builds get production device tokens, and the notifier still sends to the APNs sandbox endpoint, which rejects them with BadDeviceToken.",
      },
      {
        a: "The notifier now picks the APNs environment from the token's aps-environment entitlement recorded at registration. Production pushes are delivered.",
      },
    ],
    exact: "APNs sandbox production BadDeviceToken",
    rephrased: [
      "why didn't push notifications reach app store users?",
      "what was wrong with ios notifications in production",
    ],
    phrase: "rejects them with BadDeviceToken",
    nouns: ["push", "notifications", "ios", "production", "token", "app"],
  },
  {
    key: "dataloader-n1",
    project: "api",
    turns: [
      { u: "the orders graphql query makes 300 sql queries for one page" },
      {
        a: "Each Order.items resolver runs its own select, the classic N+1.",
      },
      {
        a: "Added a DataLoader, orderItemsLoader, created per request, that batches all item lookups into one select with an IN list. The page now runs 3 queries.",
      },
    ],
    exact: "graphql N+1 dataloader order items",
    rephrased: [
      "how did we fix the too-many-queries problem on the orders page?",
      "why did one graphql request run hundreds of sql queries",
    ],
    phrase: "the classic N+1",
    identifier: "order_items_loader",
    nouns: ["graphql", "query", "resolver", "orders", "sql", "batch"],
  },
  {
    key: "pii-logs",
    project: "api",
    turns: [
      {
        u: "security review found customer emails and phone numbers in our request logs",
      },
      {
        a: "The request logger serializes the whole body. I'll add a scrubbing step before the logger.",
      },
      {
        a: "Added scrubPii middleware that masks emails, phone numbers and card-like digit runs in bodies and query strings before logging, plus a test that fails if a fixture email reaches the log output.",
      },
    ],
    exact: "scrubPii middleware emails phone logs",
    rephrased: [
      "what did we do after personal data showed up in the logs?",
      "how are emails kept out of the request logs",
    ],
    phrase: "masks emails, phone numbers and card-like digit runs",
    identifier: "scrub pii",
    nouns: ["logs", "security", "middleware", "request", "email", "review"],
  },
  {
    key: "cron-advisory-lock",
    project: "worker",
    turns: [
      {
        u: "the nightly report cron sent every customer two emails last night",
      },
      {
        a: "We scaled the worker deployment to two replicas on Friday and both run the scheduler.",
      },
      {
        a: "The job now takes a Postgres advisory lock (pg_try_advisory_lock with the job's id) before running and skips when another replica holds it. One email per customer since.",
      },
    ],
    exact: "pg_try_advisory_lock cron replicas",
    rephrased: [
      "why did customers get the nightly report twice?",
      "how do we stop a scheduled job from running on both replicas",
    ],
    phrase: "sent every customer two emails",
    nouns: ["cron", "job", "replica", "scheduler", "email", "report"],
  },
  {
    key: "lodash-merge",
    project: "web",
    turns: [
      { u: "npm audit flags prototype pollution in lodash, high severity" },
      {
        $: "npm audit\nlodash  <4.17.21\nSeverity: high\nPrototype Pollution in lodash",
      },
      {
        a: "Upgraded lodash to 4.17.21. We also replaced the _.merge of user-supplied settings with structuredClone and an explicit allow-list, since merge on untrusted input was the risky pattern anyway.",
      },
    ],
    exact: "lodash prototype pollution 4.17.21 structuredClone",
    rephrased: [
      "what did we do about the security advisory for lodash?",
      "why did we stop using merge on user settings",
    ],
    phrase: "merge on untrusted input was the risky pattern",
    nouns: ["npm", "audit", "security", "dependency", "upgrade", "settings"],
  },
  {
    key: "cert-manager",
    project: "infra",
    turns: [
      { u: "staging is down, browsers say the certificate expired yesterday" },
      {
        a: "The staging certificate was uploaded by hand a year ago and nobody renewed it.",
      },
      {
        a: "Installed cert-manager with a Let's Encrypt ClusterIssuer and moved the staging ingress to a Certificate resource, so it renews automatically 30 days before expiry.",
      },
    ],
    exact: "cert-manager letsencrypt ClusterIssuer staging ingress",
    rephrased: [
      "why did the staging certificate expire?",
      "how are tls certificates renewed now",
    ],
    phrase: "uploaded by hand a year ago",
    nouns: [
      "certificate",
      "staging",
      "tls",
      "ingress",
      "kubernetes",
      "expired",
    ],
  },
  {
    key: "strict-null",
    project: "web",
    turns: [
      { u: "let's turn on strictNullChecks" },
      {
        $: "npx tsc --noEmit --strictNullChecks\nFound 340 errors in 87 files.",
      },
      {
        a: "340 errors is too many for one pull request. Fixing them in one go would freeze the codebase for days.",
      },
      {
        a: "We decided to enable it per directory: a tsconfig.strict.json that includes only the folders already fixed, checked in CI, and we add folders as they are cleaned up. src/api and src/utils are in.",
      },
    ],
    exact: "strictNullChecks 340 errors tsconfig.strict.json",
    rephrased: [
      "how are we rolling out strict null checking?",
      "did we enable strict mode in typescript everywhere at once",
    ],
    phrase: "freeze the codebase for days",
    identifier: "strict null checks",
    nouns: ["typescript", "strict", "errors", "tsconfig", "ci", "folders"],
  },
  {
    key: "nginx-413",
    project: "api",
    turns: [
      {
        u: "uploading a photo bigger than about 1 MB gives 413 Request Entity Too Large",
      },
      {
        a: "That comes from nginx in front of the API, whose default client_max_body_size is 1m.",
      },
      {
        a: "Raised client_max_body_size to 20m on the upload location only and added the same limit to the multer config, so big files are rejected with a clear message instead.",
      },
    ],
    exact: "nginx client_max_body_size 20m 413",
    rephrased: [
      "why did larger photo uploads fail?",
      "what is the upload size limit now",
    ],
    phrase: "Request Entity Too Large",
    nouns: ["upload", "nginx", "photo", "limit", "file", "size"],
  },
  {
    key: "safari-samesite",
    project: "auth",
    turns: [
      { u: "Safari users are stuck in a login loop, chrome is fine" },
      {
        a: "The session cookie is set with SameSite=None but without Secure; Safari drops such cookies, so every request looks logged out.",
      },
      {
        a: "Set Secure on the session cookie in every environment (local dev runs on https now too). The loop is gone in Safari 17.",
      },
    ],
    exact: "safari SameSite=None Secure session cookie",
    rephrased: [
      "why were safari users stuck logging in over and over?",
      "what was wrong with the session cookie settings",
    ],
    phrase: "stuck in a login loop",
    nouns: ["session", "cookie", "login", "browser", "safari", "auth"],
  },
  {
    key: "retry-jitter",
    project: "worker",
    turns: [
      {
        u: "when the payments api blipped for a minute, our workers hammered it for twenty minutes afterwards",
      },
      {
        a: "All workers retry on the same fixed schedule, so they retry in lockstep: a thundering herd every few seconds.",
      },
      {
        a: "Retries now use exponential backoff with full jitter, capped at 60 seconds, configured by retry_backoff_ms and retry_max_ms. The synthetic outage test recovers in under a minute.",
      },
    ],
    exact: "exponential backoff full jitter retry_backoff_ms",
    rephrased: [
      "why did the workers keep hammering the payments api after an outage?",
      "how do retries back off now",
    ],
    phrase: "a thundering herd every few seconds",
    identifier: "retryBackoffMs",
    nouns: ["retry", "payments", "worker", "outage", "api", "backoff"],
  },
  {
    key: "reflog-rescue",
    project: "web",
    turns: [
      {
        u: "I rebased feature/cart onto main and my commit with the coupon fix is gone",
      },
      {
        $: "git reflog -n 8\n4be1c02 HEAD@{0}: rebase (finish): returning to refs/heads/feature/cart\n9f3a7d1 HEAD@{5}: commit: fix coupon rounding for percentage discounts",
      },
      {
        a: "The commit is still in the reflog as 9f3a7d1. I cherry-picked it back onto feature/cart; the coupon rounding fix is back and tests pass.",
      },
    ],
    exact: "git reflog cherry-pick coupon rounding",
    rephrased: [
      "how did we recover the commit lost in the rebase?",
      "where did the coupon fix go after rebasing the cart branch",
    ],
    phrase: "The commit is still in the reflog",
    nouns: ["git", "rebase", "commit", "branch", "coupon", "cart"],
  },
  {
    key: "test-shards",
    project: "infra",
    turns: [
      { u: "the test job takes 14 minutes on every pull request" },
      {
        a: "It runs all 2,400 tests on one runner; most of the time is the end-to-end suite.",
      },
      {
        a: "Split the job into a matrix of 4 runners with vitest --shard=i/4 and merged the coverage reports in a final job. Wall time is down to 4 minutes.",
      },
    ],
    exact: "vitest shard matrix 4 runners coverage",
    rephrased: [
      "how did we speed up the test job on pull requests?",
      "why does CI now run tests on several machines",
    ],
    phrase: "merged the coverage reports in a final job",
    nouns: ["tests", "ci", "runner", "coverage", "pull", "job"],
  },
];
