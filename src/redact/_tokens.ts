/**
 * Token shapes (provider prefixes, JWTs, AWS key ids) and high-entropy values
 * in secret-shaped places. Both live in runs of 20+ token characters, which
 * one sampled pass finds: any such run covers one of every 20th position,
 * so only those positions are probed.
 *
 * @module
 */
import { hasCue } from "./_cues.ts";
import {
  base64Decoded,
  charClasses,
  continuedRun,
  type Edits,
  entropy,
  inEncryptedData,
  isHexLike,
  isIdentifierLike,
  isPathLike,
} from "./_scan.ts";

/** A token recognisable by its shape alone; the whole token is replaced. */
export interface Shape {
  id: string;
  description: string;
  /** Literal starts; the regex runs only where one of them is. */
  prefixes: readonly string[];
  pattern: string;
  /** Extra check on the match; false keeps it. */
  accept?: (token: string) => boolean;
  /** No prefix: tried on a whole token run (that is all of it). */
  whole?: boolean;
}

/** Token shapes, most specific first (sk-ant- before sk-). */
export const SHAPES: readonly Shape[] = [
  {
    id: "jwt",
    prefixes: ["eyJ"],
    description: "JSON Web Tokens: three base64url segments starting eyJ",
    pattern: String
      .raw`eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`,
  },
  {
    id: "aws-access-key",
    prefixes: ["AKIA", "ASIA"],
    description: "AWS access key ids (AKIA…, ASIA…)",
    pattern: String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}`,
  },
  {
    id: "github-token",
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    description: "GitHub tokens (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_)",
    pattern: String
      .raw`gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,}`,
  },
  {
    id: "gitlab-token",
    prefixes: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "glcbt-",
      "glft-",
      "GR1348941",
    ],
    description:
      "GitLab tokens (glpat-, gldt-, glrt-, glptt-, glcbt-, glft-, runner registration GR1348941…)",
    // A routable token (GitLab 17.x) ends in `.01.` and a routing suffix.
    pattern: String
      .raw`gl(?:pat|dt|rt|ptt|cbt|ft)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?|GR1348941[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "slack-token",
    prefixes: [
      "xoxa-",
      "xoxb-",
      "xoxp-",
      "xoxo-",
      "xoxs-",
      "xoxr-",
      "xoxe-",
      "xapp-",
    ],
    description: "Slack tokens (xoxb-, xoxp-, xoxa-, xoxe-, xapp-)",
    pattern: String
      .raw`xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,}`,
  },
  {
    id: "anthropic-key",
    prefixes: ["sk-ant-"],
    description: "Anthropic API keys (sk-ant-…)",
    pattern: String.raw`sk-ant-[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "openrouter-key",
    prefixes: ["sk-or-v1-"],
    description: "OpenRouter API keys (sk-or-v1-…)",
    pattern: String.raw`sk-or-v1-[A-Za-z0-9]{32,}`,
  },
  {
    id: "openai-key",
    prefixes: ["sk-"],
    description:
      "OpenAI-style keys (sk-…, sk-proj-…) holding a run of 20+ letters and digits",
    // A Langfuse key (sk-lf-<uuid>) has its own shape below.
    pattern: String.raw`sk-(?!lf-)[A-Za-z0-9_-]{20,}`,
    // Branch names like sk-my-long-feature-name have no long random run.
    accept: (t) => /[A-Za-z0-9]{20,}/.test(t) && charClasses(t) >= 2,
  },
  {
    id: "google-api-key",
    prefixes: ["AIza"],
    description: "Google API keys (AIza…)",
    pattern: String.raw`AIza[0-9A-Za-z_-]{30,}`,
  },
  {
    id: "npm-token",
    prefixes: ["npm_"],
    description: "npm access tokens (npm_…)",
    pattern: String.raw`npm_[A-Za-z0-9]{30,}`,
  },
  {
    id: "huggingface-token",
    prefixes: ["hf_"],
    description: "Hugging Face tokens (hf_…)",
    pattern: String.raw`hf_[A-Za-z0-9]{30,}`,
  },
  {
    id: "pypi-token",
    prefixes: ["pypi-Ag"],
    description: "PyPI upload tokens (pypi-Ag…)",
    pattern: String.raw`pypi-Ag[A-Za-z0-9_-]{40,}`,
  },
  {
    id: "sendgrid-key",
    prefixes: ["SG."],
    description: "SendGrid API keys (SG.….…)",
    pattern: String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
  },
  {
    id: "stripe-key",
    prefixes: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
    // Publishable keys (pk_live_, pk_test_) are public by design: kept.
    description:
      "Stripe secret and restricted keys and webhook secrets (sk_live_, rk_live_, *_test_, whsec_)",
    pattern: String
      .raw`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9+/]{24,}`,
  },
  {
    id: "elevenlabs-key",
    prefixes: ["sk_"],
    description: "ElevenLabs API keys (sk_ and 48 hex digits)",
    pattern: String.raw`sk_[a-f0-9]{48}`,
  },
  {
    id: "shopify-token",
    prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"],
    description: "Shopify access tokens (shpat_, shpca_, shppa_, shpss_)",
    pattern: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}`,
  },
  {
    id: "digitalocean-token",
    prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"],
    description: "DigitalOcean tokens (dop_v1_, doo_v1_, dor_v1_)",
    pattern: String.raw`do[opr]_v1_[a-f0-9]{64}`,
  },
  {
    id: "groq-key",
    prefixes: ["gsk_"],
    description: "Groq API keys (gsk_…)",
    pattern: String.raw`gsk_[A-Za-z0-9]{40,}`,
  },
  {
    id: "xai-key",
    prefixes: ["xai-"],
    description: "xAI API keys (xai- followed by letters and digits only)",
    pattern: String.raw`xai-[A-Za-z0-9]{40,}`,
  },
  {
    id: "linear-key",
    prefixes: ["lin_api_"],
    description: "Linear API keys (lin_api_…)",
    pattern: String.raw`lin_api_[A-Za-z0-9]{32,}`,
  },
  {
    id: "databricks-token",
    prefixes: ["dapi"],
    description: "Databricks tokens (dapi…)",
    pattern: String.raw`dapi[a-f0-9]{32}(?:-\d)?`,
  },
  {
    id: "age-secret-key",
    prefixes: ["AGE-SECRET-KEY-1"],
    description: "age encryption secret keys (AGE-SECRET-KEY-1…)",
    pattern: String.raw`AGE-SECRET-KEY-1[0-9A-Z]{50,}`,
  },
  {
    id: "vault-token",
    prefixes: ["hvs.", "hvb.", "hvr.", "s."],
    description:
      "HashiCorp Vault tokens (hvs., hvb., hvr.; legacy s. and 24 characters)",
    pattern: String.raw`hv[sbr]\.[A-Za-z0-9_-]{24,}|s\.[A-Za-z0-9]{24}`,
    // A legacy token mixes cases and digits; a name like s.someProperty does not.
    accept: (t) => !t.startsWith("s.") || charClasses(t.slice(2)) === 3,
  },
  {
    id: "google-oauth-token",
    prefixes: ["ya29."],
    description: "Google OAuth access tokens (ya29.…)",
    pattern: String.raw`ya29\.[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "doppler-token",
    prefixes: ["dp.st.", "dp.pt.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
    description:
      "Doppler tokens (dp.st., dp.pt., dp.ct., dp.sa., dp.scim., dp.audit.)",
    pattern: String
      .raw`dp\.(?:st|pt|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,}`,
  },
  {
    id: "pulumi-token",
    prefixes: ["pul-"],
    description: "Pulumi access tokens (pul-…)",
    pattern: String.raw`pul-[a-f0-9]{40}`,
  },
  {
    id: "docker-token",
    prefixes: ["dckr_pat_", "dckr_oat_"],
    description: "Docker Hub access tokens (dckr_pat_, dckr_oat_)",
    pattern: String.raw`dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "perplexity-key",
    prefixes: ["pplx-"],
    description: "Perplexity API keys (pplx-…)",
    pattern: String.raw`pplx-[A-Za-z0-9]{40,}`,
  },
  {
    id: "private-key-base64",
    prefixes: ["LS0tLS1CRUdJTi"],
    description:
      "a PEM private key block written as base64 (kubeconfig client-key-data)",
    pattern: String.raw`LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}`,
    accept: (t) => {
      try {
        return atob(t.slice(0, 80 - (80 % 4))).includes("PRIVATE KEY");
      } catch {
        return false;
      }
    },
  },
  {
    id: "gcp-service-account",
    prefixes: [
      "eyJ0eXBlIjoic2VydmljZV9hY2NvdW50",
      "eyJ0eXBlIjogInNlcnZpY2VfYWNjb3Vu",
      "ewogICJ0eXBlIjogInNlcnZpY2VfYWNjb3Vu",
      "ewogICAgInR5cGUiOiAic2VydmljZV9hY2NvdW50",
      "ew0KICAidHlwZSI6ICJzZXJ2aWNlX2FjY291bnQi",
      "ewoJInR5cGUiOiAic2VydmljZV9hY2NvdW50",
    ],
    description:
      'a Google service account key file written as base64 (GOOGLE_CREDENTIALS_B64, a CI variable): JSON that opens with "type": "service_account"',
    pattern: String
      .raw`(?:eyJ0eXBlIjoic2VydmljZV9hY2NvdW50|eyJ0eXBlIjogInNlcnZpY2VfYWNjb3Vu|ewogICJ0eXBlIjogInNlcnZpY2VfYWNjb3Vu|ewogICAgInR5cGUiOiAic2VydmljZV9hY2NvdW50|ew0KICAidHlwZSI6ICJzZXJ2aWNlX2FjY291bnQi|ewoJInR5cGUiOiAic2VydmljZV9hY2NvdW50)[A-Za-z0-9+/]{40,}={0,2}`,
  },
  {
    id: "discord-bot-token",
    prefixes: ["MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"],
    description:
      "Discord bot tokens (base64 user id, a 6-character stamp, an HMAC)",
    pattern: String
      .raw`[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}`,
  },
  {
    id: "sentry-token",
    prefixes: ["sntryu_", "sntrys_"],
    description: "Sentry auth tokens (sntryu_ user, sntrys_ organisation)",
    pattern: String.raw`sntryu_[a-f0-9]{64}|sntrys_[A-Za-z0-9+\/=_-]{40,}`,
  },
  {
    id: "replicate-token",
    prefixes: ["r8_"],
    description: "Replicate API tokens (r8_…)",
    pattern: String.raw`r8_[A-Za-z0-9]{30,}`,
    accept: (t) => charClasses(t.slice(3)) >= 2,
  },
  {
    id: "heroku-key",
    prefixes: ["HRKU-"],
    description: "Heroku API keys (HRKU-…)",
    pattern: String.raw`HRKU-[A-Za-z0-9_-]{20,}`,
  },
  {
    id: "grafana-token",
    prefixes: ["glsa_", "glc_"],
    description:
      "Grafana service account tokens (glsa_…) and Grafana Cloud tokens (glc_…)",
    pattern: String
      .raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+\/=_-]{32,}`,
  },
  {
    id: "newrelic-key",
    prefixes: ["NRAK-", "NRJS-", "NRII-", "NRAA-"],
    description: "New Relic keys (NRAK-, NRJS-, NRII-, NRAA-)",
    pattern: String.raw`NR(?:AK|JS|II|AA)-[A-Z0-9]{19,}`,
  },
  {
    id: "postman-key",
    prefixes: ["PMAK-"],
    description: "Postman API keys (PMAK-…)",
    pattern: String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`,
  },
  {
    id: "supabase-token",
    prefixes: ["sbp_"],
    description: "Supabase access tokens (sbp_…)",
    pattern: String.raw`sbp_[a-f0-9]{40}`,
  },
  {
    id: "notion-token",
    prefixes: ["ntn_", "secret_"],
    description: "Notion integration tokens (ntn_…, legacy secret_…)",
    pattern: String.raw`ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}`,
    // secret_key_base and friends are names; a token mixes cases and digits.
    accept: (t) => charClasses(t.slice(t.indexOf("_") + 1)) === 3,
  },
  {
    id: "atlassian-token",
    prefixes: ["ATATT3", "ATCTT3"],
    description: "Atlassian API tokens (ATATT3…, ATCTT3…)",
    pattern: String.raw`AT[AC]TT3[A-Za-z0-9_=-]{100,}`,
  },
  {
    id: "twilio-key",
    prefixes: ["SK"],
    description: "Twilio API key sids (SK and 32 hex digits)",
    pattern: String.raw`SK[0-9a-f]{32}`,
  },
  {
    id: "mailgun-key",
    prefixes: ["key-"],
    description: "Mailgun API keys (key- and 32 hex digits)",
    pattern: String.raw`key-[0-9a-f]{32}`,
  },
  {
    id: "google-oauth-secret",
    prefixes: ["GOCSPX-", "1//0"],
    description:
      "Google OAuth client secrets (GOCSPX-…) and refresh tokens (1//0…)",
    pattern: String.raw`GOCSPX-[A-Za-z0-9_-]{24,}|1\/\/0[A-Za-z0-9_-]{40,}`,
  },
  {
    id: "resend-key",
    prefixes: ["re_"],
    description: "Resend API keys (re_…_…)",
    pattern: String.raw`re_[A-Za-z0-9]{8,}_[A-Za-z0-9]{16,}`,
    accept: (t) => charClasses(t.slice(3)) === 3,
  },
  {
    id: "flyio-token",
    prefixes: ["fm1_", "fm2_", "fo1_"],
    description: "Fly.io tokens (FlyV1 fm2_…, each comma-separated part)",
    pattern: String.raw`f[mo][12][ar]?_[A-Za-z0-9+\/=_-]{40,}`,
  },
  {
    id: "mapbox-token",
    prefixes: ["sk.eyJ"],
    description: "Mapbox secret tokens (sk.eyJ….…)",
    pattern: String.raw`sk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`,
  },
  {
    id: "square-token",
    prefixes: ["EAAA", "sq0atp-", "sq0csp-"],
    description:
      "Square access tokens (EAAA…, sq0atp-…) and application secrets (sq0csp-…)",
    pattern: String
      .raw`EAAA[A-Za-z0-9_-]{56,}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}`,
  },
  {
    id: "terraform-token",
    prefixes: [],
    description: "Terraform Cloud / Enterprise tokens (….atlasv1.…)",
    pattern: String.raw`[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}`,
  },
  {
    id: "figma-token",
    prefixes: ["figd_"],
    description: "Figma personal access tokens (figd_…)",
    pattern: String.raw`figd_[A-Za-z0-9_-]{30,}`,
  },
  {
    id: "fcm-server-key",
    prefixes: [],
    description: "Firebase Cloud Messaging legacy server keys (AAAA…:APA91b…)",
    pattern: String.raw`AAAA[A-Za-z0-9_-]{7}:APA91[A-Za-z0-9_-]{60,}`,
  },
  {
    id: "netlify-token",
    prefixes: ["nfp_"],
    description: "Netlify personal access tokens (nfp_…)",
    pattern: String.raw`nfp_[A-Za-z0-9]{36,}`,
  },
  {
    id: "onepassword-token",
    prefixes: ["ops_eyJ"],
    description: "1Password service account tokens (ops_eyJ…)",
    pattern: String.raw`ops_eyJ[A-Za-z0-9+\/_=-]{40,}`,
  },
  {
    id: "openshift-token",
    prefixes: ["sha256~"],
    description:
      "OpenShift OAuth access tokens (sha256~…, as oc whoami -t prints)",
    pattern: String.raw`sha256~[A-Za-z0-9_-]{43}`,
  },
  {
    id: "langsmith-key",
    prefixes: ["lsv2_"],
    description: "LangSmith API keys (lsv2_pt_…, lsv2_sk_…)",
    pattern: String.raw`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`,
  },
  {
    id: "dynatrace-token",
    prefixes: ["dt0c01."],
    description: "Dynatrace API tokens (dt0c01.….…)",
    pattern: String.raw`dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}`,
  },
  {
    id: "brevo-key",
    prefixes: ["xkeysib-", "xsmtpsib-"],
    description: "Brevo (Sendinblue) API and SMTP keys (xkeysib-, xsmtpsib-)",
    pattern: String.raw`x(?:key|smtp)sib-[a-f0-9]{64}-[A-Za-z0-9]{16}`,
  },
  {
    id: "buildkite-token",
    prefixes: ["bkua_"],
    description: "Buildkite API access tokens (bkua_…)",
    pattern: String.raw`bkua_[a-f0-9]{40}`,
  },
  {
    id: "render-key",
    prefixes: ["rnd_"],
    description: "Render API keys (rnd_…)",
    pattern: String.raw`rnd_[A-Za-z0-9]{24,}`,
    // rnd_ and a word (rnd_generatorStateSnapshot) is a name.
    accept: (t) =>
      charClasses(t.slice(4)) >= 2 && !isIdentifierLike(t.slice(4)),
  },
  {
    id: "pinecone-key",
    prefixes: ["pcsk_"],
    description: "Pinecone API keys (pcsk_…_…)",
    pattern: String.raw`pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,}`,
  },
  {
    id: "contentful-token",
    prefixes: ["CFPAT-"],
    description: "Contentful personal access tokens (CFPAT-…)",
    pattern: String.raw`CFPAT-[A-Za-z0-9_-]{40,}`,
  },
  {
    id: "planetscale-token",
    prefixes: ["pscale_"],
    description:
      "PlanetScale service tokens and passwords (pscale_tkn_, pscale_pw_, pscale_oauth_)",
    pattern: String.raw`pscale_(?:tkn|pw|oauth|otkn)_[A-Za-z0-9_-]{32,}`,
  },
  {
    id: "airtable-token",
    prefixes: ["pat"],
    description: "Airtable personal access tokens (pat + 14, a dot, 64 hex)",
    pattern: String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`,
  },
  {
    id: "circleci-token",
    prefixes: ["CCIPAT_", "CCIPRJ_"],
    description: "CircleCI personal and project tokens (CCIPAT_, CCIPRJ_)",
    pattern: String.raw`CCIP(?:AT|RJ)_[A-Za-z0-9]{20,}_[a-f0-9]{40}`,
  },
  {
    id: "intercom-token",
    prefixes: ["dG9rOj"],
    description: "Intercom access tokens (base64 of tok:…, dG9rOj…)",
    pattern: String.raw`dG9rOj[A-Za-z0-9+\/_-]{40,}={0,2}`,
  },
  {
    id: "launchdarkly-key",
    prefixes: ["sdk-", "mob-"],
    description: "LaunchDarkly SDK and mobile keys (sdk-<uuid>, mob-<uuid>)",
    pattern: String
      .raw`(?:sdk|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  },
  {
    id: "tailscale-key",
    prefixes: ["tskey-"],
    description: "Tailscale auth, API and OAuth client keys (tskey-auth-…)",
    pattern: String.raw`tskey-[a-z]+-[A-Za-z0-9]{6,}-[A-Za-z0-9]{20,}`,
  },
  {
    id: "neon-password",
    prefixes: ["npg_"],
    description:
      "Neon database passwords (npg_…; also shorter than a token run)",
    pattern: String.raw`npg_[A-Za-z0-9]{12,}`,
    accept: (t) => charClasses(t.slice(4)) >= 2,
  },
  {
    id: "braintree-token",
    prefixes: [],
    description:
      "Braintree access tokens (access_token$production$…$…, also $sandbox$)",
    pattern: String
      .raw`access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}`,
  },
  {
    id: "asana-token",
    prefixes: [],
    description: "Asana personal access tokens (1/ or 2/, two ids, :, 32 hex)",
    pattern: String.raw`[12]\/[0-9]{12,20}\/[0-9]{12,20}:[a-f0-9]{32}`,
  },
  {
    id: "mailchimp-key",
    prefixes: [],
    whole: true,
    description: "Mailchimp API keys (32 hex digits, -us and the datacenter)",
    pattern: String.raw`[0-9a-f]{32}-us[0-9]{1,2}`,
  },
  {
    id: "ngrok-token",
    prefixes: [],
    whole: true,
    description: "ngrok authtokens (a digit, 26 characters, _, 21 characters)",
    pattern: String.raw`[1-9][A-Za-z0-9]{26}_[A-Za-z0-9]{21}`,
    // Both halves random: no name made of words has this shape.
    accept: (t) =>
      t.split("_").every((p) => charClasses(p) === 3 && !isIdentifierLike(p)),
  },
  {
    id: "rubygems-key",
    prefixes: ["rubygems_"],
    description: "RubyGems API keys (rubygems_ and 48 hex digits)",
    pattern: String.raw`rubygems_[a-f0-9]{48}`,
  },
  {
    id: "supabase-secret-key",
    prefixes: ["sb_secret_"],
    description:
      "Supabase secret API keys (sb_secret_…; sb_publishable_ is public)",
    pattern: String.raw`sb_secret_[A-Za-z0-9_-]{24,}`,
    // sb_secret_key_for_local_dev is a name.
    accept: (t) => randomTail(t, "sb_secret_".length, 2),
  },
  {
    id: "tavily-key",
    prefixes: ["tvly-"],
    description: "Tavily API keys (tvly-…, tvly-dev-…)",
    pattern: String.raw`tvly-(?:dev-|prod-)?[A-Za-z0-9]{24,}`,
    accept: (t) => randomTail(t, t.lastIndexOf("-") + 1, 2),
  },
  {
    id: "firecrawl-key",
    prefixes: ["fc-"],
    description: "Firecrawl API keys (fc- and 32 hex digits)",
    pattern: String.raw`fc-[0-9a-f]{32}`,
  },
  {
    id: "e2b-key",
    prefixes: ["e2b_"],
    description: "E2B API keys (e2b_ and 40 hex digits)",
    pattern: String.raw`e2b_[0-9a-f]{40}`,
  },
  {
    id: "neon-api-key",
    prefixes: ["napi_"],
    description: "Neon API keys (napi_ and 40+ letters and digits)",
    pattern: String.raw`napi_[A-Za-z0-9]{40,}`,
    accept: (t) => randomTail(t, "napi_".length, 2),
  },
  {
    id: "sourcegraph-token",
    prefixes: ["sgp_"],
    description:
      "Sourcegraph access tokens (sgp_, a 16-hex instance id or local, _, 40 hex digits; legacy sgp_ and 40 hex)",
    pattern: String.raw`sgp_(?:(?:[0-9a-f]{16}|local)_)?[0-9a-f]{40}`,
  },
  {
    id: "polar-token",
    prefixes: ["polar_oat_", "polar_pat_"],
    description: "Polar access tokens (polar_oat_, polar_pat_)",
    pattern: String.raw`polar_[op]at_[A-Za-z0-9]{32,}`,
    accept: (t) => randomTail(t, "polar_oat_".length, 2),
  },
  {
    id: "cerebras-key",
    prefixes: ["csk-"],
    description: "Cerebras API keys (csk- and 40+ letters and digits)",
    pattern: String.raw`csk-[A-Za-z0-9]{40,}`,
    accept: (t) => randomTail(t, "csk-".length, 2),
  },
  {
    id: "fireworks-key",
    prefixes: ["fw_"],
    description: "Fireworks AI API keys (fw_ and 20+ mixed letters and digits)",
    pattern: String.raw`fw_[A-Za-z0-9]{20,}`,
    // fw_ and a name (fw_UpdateCheckIntervalV2) is no key.
    accept: (t) => randomTail(t, "fw_".length, 3),
  },
  {
    id: "browserbase-key",
    prefixes: ["bb_live_", "bb_test_"],
    description: "Browserbase API keys (bb_live_…, bb_test_…)",
    pattern: String.raw`bb_(?:live|test)_[A-Za-z0-9_-]{20,}`,
    accept: (t) => randomTail(t, "bb_live_".length, 2),
  },
  {
    id: "together-key",
    prefixes: ["tgp_v1_"],
    description: "Together AI API keys (tgp_v1_…)",
    pattern: String.raw`tgp_v1_[A-Za-z0-9_-]{30,}`,
    accept: (t) => randomTail(t, "tgp_v1_".length, 2),
  },
  {
    id: "voyage-key",
    prefixes: ["pa-"],
    description: "Voyage AI API keys (pa- and 40+ mixed base64url characters)",
    pattern: String.raw`pa-[A-Za-z0-9_-]{40,}`,
    accept: (t) => randomTail(t, "pa-".length, 3),
  },
  {
    id: "gemini-key",
    prefixes: ["AQ.Ab8R"],
    description: "Google Gemini API keys of the AQ. form (AQ.Ab8R…)",
    pattern: String.raw`AQ\.Ab8R[A-Za-z0-9_-]{30,}`,
  },
  {
    id: "bitbucket-password",
    prefixes: ["ATBB"],
    description: "Bitbucket app passwords (ATBB and 28+ letters and digits)",
    pattern: String.raw`ATBB[A-Za-z0-9]{28,}`,
    accept: (t) => randomTail(t, "ATBB".length, 3),
  },
  {
    id: "upstash-token",
    prefixes: [],
    whole: true,
    description:
      "Upstash Redis REST tokens (A, three characters, AAIjcDE, the secret)",
    pattern: String.raw`A[A-Za-z0-9]{3}AAIjcDE[A-Za-z0-9_-]{24,}`,
  },
  {
    id: "azure-openai-key",
    prefixes: [],
    whole: true,
    description:
      "Azure OpenAI and AI services keys (84 letters and digits, JQQJ9 at the 53rd and ACOG after it)",
    pattern: String.raw`[A-Za-z0-9]{52}JQQJ9[A-Za-z0-9]{27}`,
    accept: (t) => t.includes("ACOG", 57),
  },
  {
    id: "telegram-bot-token",
    prefixes: [],
    description: "Telegram bot tokens (digits:AA…)",
    pattern: String.raw`[0-9]{8,10}:AA[A-Za-z0-9_-]{30,}`,
  },
];

/**
 * Token shapes that have no rule id of their own: a match counts as
 * `credential`. Tried after {@link SHAPES}, by the same scan.
 */
const CREDENTIAL_SHAPES: readonly Shape[] = [
  {
    id: "credential",
    prefixes: ["hcaik_", "hcxik_"],
    description: "Honeycomb ingest keys (hcaik_, hcxik_ and 58 characters)",
    pattern: String.raw`hc[ax]ik_[a-z0-9]{58}`,
  },
  {
    id: "credential",
    prefixes: ["pnu_", "pnb_"],
    description: "Prefect Cloud API keys (pnu_ user, pnb_ service account)",
    pattern: String.raw`pn[ub]_[A-Za-z0-9]{36}`,
  },
  {
    id: "credential",
    prefixes: ["live_", "test_"],
    description: "Mollie API keys (live_ or test_ and 30 letters and digits)",
    pattern: String.raw`(?:live|test)_[A-Za-z0-9]{30}`,
    // Exactly 30 random characters: live_reload_enabled and test names
    // (test_ParsesEmptyInputWithoutError) are words.
    accept: (t) =>
      charClasses(t.slice(5)) === 3 && !isIdentifierLike(t.slice(5)),
  },
  {
    id: "credential",
    prefixes: ["eyJhIjoi"],
    description:
      'Cloudflare tunnel tokens (base64 of {"a":account,"t":tunnel,"s":secret})',
    pattern: String.raw`eyJhIjoi[A-Za-z0-9+\/_-]{80,}={0,2}`,
    accept: (t) => !otherJson(t),
  },
  {
    id: "credential",
    prefixes: ["eyJwYXlsb2FkIjoi"],
    description:
      'Amazon ECR registry passwords (aws ecr get-login-password: base64 of {"payload":…,"datakey":…}, 12 hours valid)',
    // Real ones run past 2,000 characters; a short `{"payload":"…"}` is
    // some other envelope.
    pattern: String.raw`eyJwYXlsb2FkIjoi[A-Za-z0-9+\/]{400,}={0,2}`,
  },
  {
    id: "credential",
    prefixes: ["pat-"],
    description:
      "HubSpot private app tokens (pat-, a region such as na1 or eu1, a UUID)",
    pattern: String
      .raw`pat-[a-z]{2}[1-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  },
  {
    id: "credential",
    prefixes: ["sk-lf-"],
    description: "Langfuse secret keys (sk-lf- and a UUID; pk-lf- is public)",
    pattern: String
      .raw`sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  },
  {
    id: "credential",
    prefixes: [],
    whole: true,
    description: "BitLocker recovery keys (eight groups of six digits)",
    pattern: String.raw`\d{6}(?:-\d{6}){7}`,
  },
  {
    id: "credential",
    prefixes: ["eyJ2ZXIiOiI"],
    description:
      'Elasticsearch and Kibana enrollment tokens (base64 of {"ver":…,"adr":…,"fgr":…,"key":"id:secret"})',
    pattern: String.raw`eyJ2ZXIiOiI[A-Za-z0-9+\/]{60,}={0,2}`,
    accept: (t) => base64Decoded(t)?.includes('"key":"') ?? false,
  },
];

/** Every shape the scan tries: the listed ones, then the unlisted ones. */
const ALL_SHAPES: readonly Shape[] = [...SHAPES, ...CREDENTIAL_SHAPES];

/**
 * Whether base64 decodes to printable JSON that is no tunnel token (a
 * cursor such as {"a":"next","b":…}): a tunnel token holds its "s" secret.
 */
function otherJson(token: string): boolean {
  const bytes = base64Decoded(
    token.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/"),
  );
  if (bytes === null) return false;
  return /^[\x20-\x7e]*$/.test(bytes) && !bytes.includes('"s":"');
}

/** Prefixes holding a dot, whose token run begins after it. */
const DOTTED_STARTS = ALL_SHAPES.flatMap((s) => s.prefixes).filter((p) =>
  p.includes(".")
).concat("eyJ", "pat");

const AZURE_SECRET_HEAD = /^[A-Za-z0-9_-]{3}\d[A-Za-z]~$/;
const AZURE_SECRET =
  /[A-Za-z0-9_-]{3}\d[A-Za-z]~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-]|\.[A-Za-z0-9_~-])/y;

/** What stands before the hex run of an Asana token (`2/<id>/<id>:`). */
const ASANA_HEAD = /(?<![\w\/])[12]\/[0-9]{12,20}\/[0-9]{12,20}:$/;
/** What stands before the hex run of a Braintree token. */
const BRAINTREE_HEAD = /access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$$/;

/** Shapes with no prefix, tried on a whole run of one of their lengths. */
const WHOLE_RUN_SHAPES = ALL_SHAPES.filter((s) => s.whole);
const WHOLE_RUN = new RegExp(
  `^(?:${WHOLE_RUN_SHAPES.map((s) => `(${s.pattern})`).join("|")})$`,
);
/**
 * Mailchimp keys are 36–37 characters, ngrok authtokens 49, BitLocker keys
 * 55, Azure keys 84.
 */
const WHOLE_RUN_LENGTHS = new Set([36, 37, 49, 55, 84]);
/** What an Upstash REST token holds after its first four characters. */
const UPSTASH_INFIX = "AAIjcDE";

/**
 * Whether a run is tried against the whole-run shapes: one of their fixed
 * lengths, or an Upstash token (of any length) by its infix.
 */
function wholeRunCandidate(text: string, a: number, b: number): boolean {
  return WHOLE_RUN_LENGTHS.has(b - a) || text.startsWith(UPSTASH_INFIX, a + 4);
}

/**
 * Whether a token's part from `from` on reads as random: `classes` or more
 * of lower case, upper case and digits, and no name made of words (a
 * vendor prefix before an identifier: fw_UpdateCheckInterval).
 */
function randomTail(token: string, from: number, classes: number): boolean {
  const tail = token.slice(from);
  return charClasses(tail) >= classes && !isIdentifierLike(tail);
}

/** A stand-in such as ghp_xxxxxxxx…: eight or more of one character. */
const PLACEHOLDER_RUN = /([A-Za-z0-9])\1{7,}/g;

/**
 * Whether a token is a stand-in: a run of one character is 40% of it. A
 * real token may hold a shorter run (Fly.io's base64 has AAAAAAAAA).
 */
function isStandIn(token: string): boolean {
  PLACEHOLDER_RUN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = PLACEHOLDER_RUN.exec(token)) !== null) {
    if (m[0].length * 5 >= token.length * 2) return true;
  }
  return false;
}

// Sticky: tried only where a token run starts.
const SHAPE_AT = new RegExp(
  `(?:${ALL_SHAPES.map((s) => `(${s.pattern})`).join("|")})(?![A-Za-z0-9_-])`,
  "y",
);
// Each shape on its own, tried where one of its prefixes starts.
const SHAPE_RES = ALL_SHAPES.map((s) =>
  new RegExp(`(?:${s.pattern})(?![A-Za-z0-9_-])`, "y")
);
/**
 * Shapes whose pattern has an open-ended repeat (`{20,}`, `+`, `*`): one try
 * may read to the end of the run. Runs of many `-` and `/` (a minified
 * bundle, `sk-sk-sk-…`) would have such a shape tried at each piece, each
 * reading the rest of the run: quadratic. A run gets at most
 * {@link OPEN_ENDED_TRIES} of them.
 */
const OPEN_ENDED = ALL_SHAPES.map((s) =>
  /\{\d+,\}|[*+]/.test(s.pattern.replace(/\\.|\[(?:\\.|[^\]])*\]/g, ""))
);
/** Tries of open-ended shapes per run; an ordinary run makes one or two. */
const OPEN_ENDED_TRIES = 32;
// Shape prefixes by their first two characters, with their shapes in rank
// order, so a run is tested with two lookups and a startsWith before the
// one regex of that shape runs.
const PREFIXES = new Map<number, { prefix: string; index: number }[]>();
ALL_SHAPES.forEach((shape, index) => {
  for (const prefix of shape.prefixes) {
    const head = prefix.charCodeAt(0) * 65536 + prefix.charCodeAt(1);
    PREFIXES.set(head, [...(PREFIXES.get(head) ?? []), { prefix, index }]);
  }
});

// Characters of a token run: base64, base64url and the `-`/`_` of prefixes.
const TOKEN_CHAR = new Uint8Array(65536);
for (
  const c
    of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
) TOKEN_CHAR[c.charCodeAt(0)] = 1;
const MIN_RUN = 20;

const STOP_KEYS = new Set([
  "id",
  "ids",
  "uuid",
  "guid",
  "sha",
  "sha1",
  "sha256",
  "sha512",
  "hash",
  "digest",
  "checksum",
  "integrity",
  "etag",
  "commit",
  "rev",
  "revision",
  "version",
  "ref",
  "parent",
  "tree",
  "oid",
  "blob",
  "moved",
  "to",
  "from",
  "path",
  "file",
  "dir",
  "url",
  "uri",
  "href",
  "src",
  "image",
  "data",
  "content",
  "name",
  "title",
  "type",
  "class",
  "style",
  "model",
  "branch",
  "tag",
  "label",
  "redacted",
  "http",
  "https",
  "public",
  "pubkey",
  "fingerprint",
  "cert",
  "certificate",
  "nonce",
  "challenge",
  // A JWK's key id, WireGuard's `peer:` (a public key, as `wg show`
  // prints it).
  "kid",
  "peer",
  // An age or SOPS recipient (`recipient: age1…`): a public key.
  "recipient",
  "recipients",
  // A GraphQL or REST page cursor (`endCursor`, `next_cursor`): base64 of
  // a position.
  "cursor",
  "x5c",
  "x5t",
  // A multipart body's boundary, Cloudflare's cf-ray, a hash header's md5=
  // and crc32c=, trace and span ids: what HTTP prints, none a secret.
  "boundary",
  "ray",
  "md5",
  "crc32c",
  "crc32",
  "traceid",
  "spanid",
  // Test data: a FIXTURE or SAMPLE constant holds made-up bytes.
  "fixture",
  "fixtures",
  "sample",
  "mock",
  "dummy",
  "fake",
  "stub",
]);
const IN_ARN = /\barn:[\w-]+:[\w-]+:[\w-]*:\d*:[^\s"']*$/;
const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
// Image data, and base64 of a PEM certificate or public key (a
// kubeconfig's certificate-authority-data): public.
const IMAGE_BASE64 =
  /^(?:iVBORw0KGgo|\/9j\/|R0lGOD|UklGR|PHN2Zy|JVBERi|LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t|LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS)/;
// Object ids such as msg_01…, toolu_01…, call_…, cus_… are not secrets.
const OBJECT_ID = /^[a-z]{2,8}_[A-Za-z0-9]{12,}$/;
const KEY_WORDS_OF = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g;

/**
 * The last word of a key that is not a number, lower-cased: `commitSha` →
 * `sha`, `SHA256` → `sha`, `x-amz-id-2` → `id`.
 */
function lastKeyWord(key: string): string {
  const words = key.match(KEY_WORDS_OF) ?? [];
  let w = words.length - 1;
  while (w > 0 && /^[0-9]/.test(words[w]!)) w--;
  return (words[w] ?? key).toLowerCase();
}

/** A key's last part of letters and the digits after them: `content-md5` → `md5`. */
const LAST_KEY_PART = /[A-Za-z]+[0-9]*$/;

/**
 * Keys the entropy rule keeps only as the whole key: OAuth's `state` (a
 * CSRF nonce the client made up; a `session_state` may be a session).
 */
const WHOLE_STOP_KEYS = new Set(["state"]);

/** Whether a key names a value the entropy rule keeps (an id, a digest, …). */
function stopKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (STOP_KEYS.has(lastKeyWord(key)) || STOP_KEYS.has(lower)) return true;
  if (WHOLE_STOP_KEYS.has(lower)) return true;
  const part = LAST_KEY_PART.exec(key);
  return part !== null && STOP_KEYS.has(part[0].toLowerCase());
}

const KEY_CHAR = new Uint8Array(65536);
for (
  const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
) KEY_CHAR[c.charCodeAt(0)] = 1;

/** The key before a `=`/`:` at `sepAt`, or "" when none is there. */
function keyBefore(text: string, sepAt: number): string {
  let i = sepAt - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  while (i >= 0 && (text[i] === '"' || text[i] === "'" || text[i] === "\\")) {
    i--;
  }
  const end = i + 1;
  while (i >= 0 && end - i <= 64 && KEY_CHAR[text.charCodeAt(i)] === 1) i--;
  return text.slice(i + 1, end);
}

/**
 * True when a value reads as a random key: a run of 20–256 token characters,
 * mixed and high in entropy, and none of the digests, ids, paths, names
 * or encoded text the entropy rule keeps.
 */
export function looksRandomToken(value: string): boolean {
  return allTokenChars(value, 0, value.length) && looksRandom(value);
}

/** True when a token run reads as random: long, mixed and high in entropy. */
function looksRandom(core: string): boolean {
  if (core.length < MIN_RUN || core.length > 256) return false;
  // Digests and CSP nonces: `sha512-…`, `'nonce-…'`.
  if (isHexLike(core) || /^(?:sha(?:1|256|384|512)|nonce)-/.test(core)) {
    return false;
  }
  if (IMAGE_BASE64.test(core) || OBJECT_ID.test(core)) return false;
  // A Stripe publishable key and a Razorpay key id are meant to be public
  // (they ship in web pages; Razorpay's key secret has no prefix).
  if (/^(?:pk|rzp)_(?:live|test)_/.test(core)) return false;
  // An age recipient (age1…, bech32) is a public key.
  if (/^age1[02-9ac-hj-np-z]{50,}$/.test(core)) return false;
  if (base64OfText(core)) return false;
  // Paths: rooted, or lower case with a `/` (src/core/types), or names and
  // hex ids between slashes (FuzzParseRecord/6a1f09c3b2d4e5f7).
  if (isPathLike(core) || /^[a-z0-9_.-]*\/[a-z0-9_\/.-]*$/.test(core)) {
    return false;
  }
  if (
    core.includes("/") &&
    core.split("/").every((p) => isIdentifierLike(p) || isHexLike(p))
  ) return false;
  const classes = charClasses(core);
  if (classes < 2 || isIdentifierLike(core)) return false;
  if (classes === 3) {
    return entropy(core) >= Math.min(4, Math.log2(core.length) * 0.85);
  }
  // Two classes (lower case or upper case, with digits; hex is out above):
  // longer, denser in entropy and really mixed, as random keys are and
  // ULIDs (26) and version-like strings are not.
  if (core.length < 28 || !/[0-9]/.test(core)) return false;
  // Names built from words and ids: design-review-<uuid>-gemini_cli.
  if (UUID_IN.test(core) || /(?:^|[-_])[a-z]{4,}(?:[-_]|$)/i.test(core)) {
    return false;
  }
  const digits = core.replace(/[^0-9]/g, "").length / core.length;
  return digits >= 0.15 && digits <= 0.85 && entropy(core) >= 4.2;
}

/**
 * Base64 of ordinary text ("VGhlIHF1aWNr…" is "The quick…") or of JSON is
 * no secret.
 */
function base64OfText(core: string): boolean {
  if (!/^[A-Za-z0-9+\/]+$/.test(core)) return false;
  const bytes = base64Decoded(core);
  if (bytes === null) return false;
  let printable = 0;
  let spaces = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    if (c === 32) spaces++;
    if ((c >= 32 && c < 127) || c === 10) printable++;
  }
  // Text has spaces; JSON (a pagination cursor: {"p":912.5,…}) has braces.
  return bytes.length > 0 && printable / bytes.length > 0.95 &&
    (spaces * 12 >= bytes.length || /^\s*[{[]"/.test(bytes) ||
      plainPairs(bytes));
}

/** `name=value&…`, two pairs or more: a form or a cookie of settings. */
const FORM_PAIRS = /^[\w.%-]{1,40}=[^&=\s]*(?:&[\w.%-]{1,40}=[^&=\s]*)+$/;
/** A pair's name that may hold a secret. */
const SECRET_PAIR_NAME =
  /sess|sid|token|auth|secret|pass|pwd|key|sig|jwt|cred/i;

/**
 * Whether `text` is form pairs (a base64 cookie of preferences:
 * `user_id=42&locale=en-US&theme=dark`) that name no secret and hold no
 * random value.
 */
function plainPairs(text: string): boolean {
  if (text.length > 1024 || !FORM_PAIRS.test(text)) return false;
  return text.split("&").every((pair) => {
    const [name, value] = pair.split("=") as [string, string];
    return !SECRET_PAIR_NAME.test(name) && !looksRandom(value);
  });
}

/**
 * Where a run that starts at `a` sits: after `key=`/`key:` with a key of 3+
 * characters that is not a stop word, or alone in quotes. Returns false for
 * any other place.
 */
function secretPosition(text: string, a: number, end: number): boolean {
  let i = a - 1;
  let quote = "";
  const before = text[i];
  if (before === '"' || before === "'" || before === "`") {
    quote = before;
    i--;
    if (text[i] === "\\") i--;
  }
  while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  // The first string of a JSON list stands for its key: `"x5c": ["MII…"]`.
  if (quote && text[i] === "[") {
    i--;
    while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
  }
  const sep = text[i];
  // The `:` of a URL scheme is no key separator.
  if (sep === "=" || (sep === ":" && text[i + 1] !== "/")) {
    const key = keyBefore(text, i);
    if (stopKey(key)) return false;
    // `public key: …` (wg show, gpg): the key's words stand apart.
    if (PUBLIC_WORD_BEFORE.test(text.slice(Math.max(0, i - 24), i))) {
      return false;
    }
    // An ARN names a secret (arn:aws:secretsmanager:…:secret:name).
    if (IN_ARN.test(text.slice(Math.max(0, i - 120), i))) return false;
    if (key.toLowerCase().includes("public")) return false;
    if (publicByKey(key, text, a)) return false;
    const digits = /^[0-9]+$/.test(key);
    // A Telegram-style `123456789:` key counts; short keys do not.
    if (digits ? key.length >= 6 : key.length >= 3) return true;
  }
  if (!quote) return false;
  // A weak ETag (`W/"…"`) is a version's hash.
  if (quote === '"' && sep === "/" && text[i - 1] === "W") return false;
  const closeAt = text[end] === "\\" ? end + 1 : end;
  if (text[closeAt] !== quote) return false;
  // A quoted run followed by `:` is a JSON key ("enableI18nFormat": false),
  // never a value.
  let k = closeAt + 1;
  while (text[k] === " " || text[k] === "\t") k++;
  return text[k] !== ":";
}

/** `public key` (or `Public Key`) as two words, right before a separator. */
const PUBLIC_WORD_BEFORE = /public[ \t]+key["']?[ \t]*$/i;

/** A site key's name: `data-sitekey`, `siteKey`, `site_key`. */
const SITE_KEY = /site[_-]?key$/i;

/**
 * True when the key names a value that is public by design: a CAPTCHA
 * site key (`data-sitekey="6L…"`, shipped in the page; its secret key is
 * not), an OpenAI organization id (`OpenAI-Organization: org-…`).
 */
function publicByKey(key: string, text: string, a: number): boolean {
  return SITE_KEY.test(key) ||
    (lastKeyWord(key) === "organization" && text.startsWith("org-", a));
}

/** The word secret, token or api key (and access/key), then blanks: before a run. */
const SPOKEN_BEFORE =
  /\b(?:secret|token|api[ _-]?key)(?:[ _-]?access)?(?:[ _-]?key)?[ \t]+(?:is[ \t]+|(?:for|of)[ \t]+(?:the[ \t]+|my[ \t]+|our[ \t]+)?[\w.-]{1,24}[ \t]+(?:is|was)[ \t]+)?$/i;

/**
 * A run said right after the word secret, token or api key, with no `:`/`=`
 * between: an AWS secret key (40 base64 characters: aws-secret), 32+ hex
 * digits or a random token of 24+ (credential). Adds the edit and says so.
 */
function spokenSecret(text: string, a: number, b: number, edits: Edits) {
  if (text[a - 1] !== " " && text[a - 1] !== "\t") return false;
  if (!SPOKEN_BEFORE.test(text.slice(Math.max(0, a - 72), a))) return false;
  const value = text.slice(a, b);
  if (
    value.length === 40 && !/[_-]/.test(value) && !isHexLike(value) &&
    charClasses(value) === 3
  ) {
    edits.push({ start: a, end: b, id: "aws-secret" });
    return true;
  }
  const secret = isHexLike(value)
    ? value.length >= 32
    : value.length >= 24 && charClasses(value) === 3 &&
      !isIdentifierLike(value) && !value.includes("/");
  if (secret) edits.push({ start: a, end: b, id: "credential" });
  return secret;
}

/** An AWS access key id (AKIA…, ASIA…). */
const ACCESS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/;

/** How near an access key id its secret is looked for, in characters. */
const PAIR_WINDOW = 160;

/**
 * A run shaped like an AWS secret key (40 base64 characters of three
 * classes, not hex) near an access key id: the pair a credentials CSV, a
 * `aws configure` echo or a pasted note holds, with no keyword between.
 */
function besideAccessKey(text: string, a: number, b: number): boolean {
  if (b - a !== 40) return false;
  const value = text.slice(a, b);
  if (/[_-]/.test(value) || isHexLike(value) || charClasses(value) !== 3) {
    return false;
  }
  return ACCESS_KEY_ID.test(
    text.slice(
      Math.max(0, a - PAIR_WINDOW),
      Math.min(text.length, b + PAIR_WINDOW),
    ),
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Checks one run `[a, b)` of token characters for shapes, then entropy.
 * `slash.at` caches the next `/` at or after the run (runs come in order),
 * so a text without one is searched once, not once per run.
 */
function tokenRun(
  text: string,
  a: number,
  b: number,
  slash: { at: number },
  edits: Edits,
): void {
  // Some tokens begin before the run: a Telegram token's digits sit before
  // a `:`, and SendGrid keys and JWTs with a short header before a `.`.
  let from = a;
  let head: RegExpExecArray | null;
  if (
    text[a - 1] === ":" && text.startsWith("APA91", a) &&
    /^AAAA[A-Za-z0-9_-]{7}$/.test(text.slice(a - 12, a - 1))
  ) {
    // An FCM server key: AAAA and seven characters, `:`, then the run.
    from = a - 12;
  } else if (text[a - 1] === ":" && text[a] === "A" && text[a + 1] === "A") {
    let d = a - 1;
    while (d > 0 && isDigit(text.charCodeAt(d - 1))) d--;
    if (a - 1 - d >= 8) from = d;
  } else if (
    text[a - 1] === ":" && (head = ASANA_HEAD.exec(
      text.slice(Math.max(0, a - 48), a),
    ))
  ) {
    // An Asana token: 1/ or 2/, two ids and a `:` before the hex run.
    from = a - head[0].length;
  } else if (
    text[a - 1] === "$" && (head = BRAINTREE_HEAD.exec(
      text.slice(Math.max(0, a - 48), a),
    ))
  ) {
    // A Braintree token: access_token$production$…$ before the hex run.
    from = a - head[0].length;
  } else if (text[a - 1] === "~" && text.startsWith("sha256~", a - 7)) {
    // An OpenShift token: its `~` ends the run before it.
    from = a - 7;
  } else if (
    text.startsWith(".atlasv1.", a - 9) &&
    /^[A-Za-z0-9]{14}$/.test(text.slice(a - 23, a - 9))
  ) {
    // A Terraform token: 14 characters, .atlasv1., the rest (the run).
    from = a - 23;
  } else if (text[a - 1] === ".") {
    // A prefix with dots (SG., eyJ….…, hvs., ya29., dp.st.prd.) ends just
    // before the run: step back over token characters and dots to it.
    let d = a - 1;
    while (
      d > 0 && a - d < 48 &&
      (TOKEN_CHAR[text.charCodeAt(d - 1)] === 1 || text[d - 1] === ".")
    ) d--;
    for (let p = d; p < a - 1; p++) {
      if (p > d && text[p - 1] !== "." && TOKEN_CHAR[text.charCodeAt(p - 1)]) {
        continue;
      }
      if (DOTTED_STARTS.some((start) => text.startsWith(start, p))) {
        from = p;
        break;
      }
    }
  }
  let found = false;
  let openEndedTries = 0;
  let dashAt = -1;
  let s = from;
  while (s >= 0 && s < b - 15) {
    const starts = PREFIXES.get(
      text.charCodeAt(s) * 65536 + text.charCodeAt(s + 1),
    );
    // A token that starts before the run (Telegram's digits) is tried with
    // every shape; one at a prefix only with the shapes of that prefix.
    let m: RegExpExecArray | null = null;
    let shape: Shape | undefined;
    if (s < a && s === from) {
      SHAPE_AT.lastIndex = s;
      m = SHAPE_AT.exec(text);
      shape = m
        ? ALL_SHAPES[m.findIndex((g, j) => j > 0 && g !== undefined) - 1]
        : undefined;
    } else if (starts) {
      for (const { prefix, index } of starts) {
        if (!text.startsWith(prefix, s)) continue;
        if (OPEN_ENDED[index] && openEndedTries++ >= OPEN_ENDED_TRIES) {
          continue;
        }
        const re = SHAPE_RES[index]!;
        re.lastIndex = s;
        m = re.exec(text);
        if (m) {
          shape = ALL_SHAPES[index];
          break;
        }
      }
    }
    if (
      m && shape && (!shape.accept || shape.accept(m[0])) &&
      !isStandIn(m[0])
    ) {
      edits.push({ start: s, end: s + m[0].length, id: shape.id });
      found = true;
      s += m[0].length;
      continue;
    }
    // Shapes also start after a `/` inside the run (paths, URLs) or a `-`
    // (a folder named deploy-ghp_…).
    if (slash.at < s && slash.at !== -2) {
      slash.at = text.indexOf("/", s);
      if (slash.at < 0) slash.at = -2;
    }
    // The next `-` in the run, found once and passed by (a 100 KB base64
    // image has no dash and many slashes: no rescan per slash).
    if (dashAt <= s) {
      dashAt = s + 1;
      while (dashAt < b && text.charCodeAt(dashAt) !== 45 /* - */) dashAt++;
    }
    const next = dashAt < b && (slash.at < 0 || dashAt < slash.at)
      ? dashAt
      : slash.at;
    s = next < 0 || next >= b ? -1 : next + 1;
  }
  if (!found && wholeRunCandidate(text, a, b)) {
    const m = WHOLE_RUN.exec(text.slice(a, b));
    const k = m ? m.findIndex((g, j) => j > 0 && g !== undefined) - 1 : -1;
    const shape = WHOLE_RUN_SHAPES[k];
    if (m && shape && (!shape.accept || shape.accept(m[0]))) {
      edits.push({ start: a, end: b, id: shape.id });
      found = true;
    }
  }
  if (found) {
    const last = edits[edits.length - 1]!;
    const more = last.end === b ? continuedRun(text, b) : null;
    if (more) last.end = more.end;
    return;
  }
  if (dockerConfig(text, a)) {
    let end = b;
    while (end < text.length && end - b < 2 && text[end] === "=") end++;
    edits.push({ start: a, end, id: "credential" });
    return;
  }
  if (b - a > 256) return;
  if (wrappedToken(text, a, b, edits)) return;
  if (spokenSecret(text, a, b, edits)) return;
  if (besideAccessKey(text, a, b)) {
    edits.push({ start: a, end: b, id: "aws-secret" });
    return;
  }
  if (hardhatAccount(text, a, b)) {
    edits.push({ start: b - 64, end: b, id: "private-key" });
    return;
  }
  let end = b;
  while (end < text.length && end - b < 2 && text[end] === "=") end++;
  if (!secretPosition(text, a, end)) return;
  if (text.slice(Math.max(0, a - 8), a).includes("base64,")) return;
  if (looksRandom(text.slice(a, b)) && !inEncryptedData(text, a)) {
    edits.push({ start: a, end, id: "entropy" });
  }
}

/** A Hardhat network's `accounts: [` and the quoted keys before the run. */
const ACCOUNTS_BEFORE =
  /accounts["']?[ \t]*:[ \t]*\[(?:\s*(["'`])(?:0x)?[0-9a-fA-F]{64}\1\s*,)*\s*["'`](?:0x)?$/;

/**
 * Whether the run `[a, b)` is a private key (64 hex digits, or 0x and
 * them) in a Hardhat network's `accounts: ["…", …]` list.
 */
function hardhatAccount(text: string, a: number, b: number): boolean {
  const hex = b - a === 66 && text.startsWith("0x", a) ? a + 2 : a;
  if (b - hex !== 64 || !isHexLike(text.slice(hex, b))) return false;
  return ACCOUNTS_BEFORE.test(text.slice(Math.max(0, a - 400), a));
}

const DOCKER_CONFIG_KEY =
  /\.docker(?:configjson|cfg)["']?[ \t]*[:=][ \t]*["']?$/;

/**
 * Whether the run at `a` is the value of a Kubernetes registry secret's
 * `.dockerconfigjson` (base64 of JSON holding the registry password, which
 * the rule for base64 of JSON would take for a cursor).
 */
function dockerConfig(text: string, a: number): boolean {
  const head = text.slice(Math.max(0, a - 24), a);
  return head.includes("docker") && DOCKER_CONFIG_KEY.test(head);
}

/** Whether `[a, b)` is a whole line (no other character on it). */
function wholeLine(text: string, a: number, b: number): boolean {
  return (a === 0 || text[a - 1] === "\n") &&
    (b === text.length || text[b] === "\n" || text[b] === "\r");
}

/** Whether `[s, e)` holds only token characters. */
function allTokenChars(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    if (TOKEN_CHAR[text.charCodeAt(i)] !== 1) return false;
  }
  return true;
}

/**
 * A token wrapped over lines (a terminal, `fold -w 40`): the run `[a, b)` is
 * a whole line, and a line or three above, each a whole line of token
 * characters, the first starts with a known prefix. When the joined pieces
 * make a token of that shape — one the first piece alone is not, or cut at
 * one width — the pieces and the line breaks between them are replaced.
 */
function wrappedToken(text: string, a: number, b: number, edits: Edits) {
  if (!wholeLine(text, a, b) || a < 2) return false;
  // The lines above, found by their breaks; only one that starts with a
  // prefix makes it worth reading the lines between.
  const lines: Array<[number, number]> = [];
  let end = a - 1;
  for (let up = 0; up < 3 && end > 0; up++) {
    const e = text[end - 1] === "\r" ? end - 1 : end;
    const s = text.lastIndexOf("\n", e - 1) + 1;
    if (e - s < 8) return false;
    lines.unshift([s, e]);
    const starts = PREFIXES.get(
      text.charCodeAt(s) * 65536 + text.charCodeAt(s + 1),
    );
    if (starts?.some(({ prefix }) => text.startsWith(prefix, s))) {
      const pieces: Array<[number, number]> = [...lines, [a, b]];
      if (!pieces.every(([ps, pe]) => allTokenChars(text, ps, pe))) {
        return false;
      }
      return joinPieces(text, pieces, edits);
    }
    if (afterKey(text, s, e, lines.slice(1), a, b, edits)) return true;
    end = s - 1;
  }
  return false;
}

/** The shortest line a terminal wraps at (an 80-column one, less a margin). */
const WRAP_WIDTH = 64;

/**
 * A token after a key on a line a terminal wrapped (`OPENAI_API_KEY=sk-…`
 * cut at the width, the rest on the lines below): the line `[s, e)` is 64+
 * characters and ends in a run of token characters that starts with a
 * known prefix; the lines between are whole token lines of the same
 * width, and the last is no longer. When the run and the lines below
 * joined make one token shape, they are replaced whole.
 */
function afterKey(
  text: string,
  s: number,
  e: number,
  between: Array<[number, number]>,
  a: number,
  b: number,
  edits: Edits,
): boolean {
  const width = e - s;
  if (width < WRAP_WIDTH || b - a > width) return false;
  let t = e;
  while (t > s && TOKEN_CHAR[text.charCodeAt(t - 1)] === 1) t--;
  if (t === s || e - t < 8) return false;
  const starts = PREFIXES.get(
    text.charCodeAt(t) * 65536 + text.charCodeAt(t + 1),
  );
  if (!starts?.some(({ prefix }) => text.startsWith(prefix, t))) return false;
  if (
    !between.every(([ps, pe]) =>
      pe - ps === width && allTokenChars(text, ps, pe)
    )
  ) return false;
  const pieces: Array<[number, number]> = [[t, e], ...between, [a, b]];
  const joined = pieces.map(([ps, pe]) => text.slice(ps, pe)).join("");
  const m = WHOLE_SHAPE.exec(joined);
  if (!m || m[0].length !== joined.length) return false;
  if (pieces.slice(1).some(([ps, pe]) => isHexLike(text.slice(ps, pe)))) {
    return false;
  }
  const k = m.findIndex((g, j) => j > 0 && g !== undefined) - 1;
  // A run as wide as the key's line may go on below, too short to be read.
  const end = b - a === width ? shortTail(text, b, width, joined) : b;
  edits.push({ start: t, end, id: ALL_SHAPES[k]?.id ?? "credential" });
  return true;
}

/**
 * Where a wrapped token ends when its last piece is shorter than the runs
 * the sampled pass reads (`MIN_RUN`): `b` ends a line `width` wide that
 * the token filled, and the next line is a whole line of fewer token
 * characters that `joined` (the token so far) takes on and keeps its
 * shape. Else `b`.
 */
function shortTail(
  text: string,
  b: number,
  width: number,
  joined: string,
): number {
  let s = b;
  if (text[s] === "\r") s++;
  if (text[s] !== "\n") return b;
  s++;
  let e = s;
  while (
    e < text.length && e - s < MIN_RUN && TOKEN_CHAR[text.charCodeAt(e)] === 1
  ) e++;
  if (e === s || e - s >= MIN_RUN || e - s > width) return b;
  if (e < text.length && text[e] !== "\n" && text[e] !== "\r") return b;
  const tail = text.slice(s, e);
  if (isHexLike(tail) || !WHOLE_SHAPE.test(joined + tail)) return b;
  return e;
}

/** Replaces the pieces as one token when joined they make one shape. */
function joinPieces(
  text: string,
  pieces: Array<[number, number]>,
  edits: Edits,
): boolean {
  const joined = pieces.map(([s, e]) => text.slice(s, e)).join("");
  const m = WHOLE_SHAPE.exec(joined);
  if (!m || m[0].length !== joined.length) return false;
  const [s0, e0] = pieces[0]!;
  const alone = WHOLE_SHAPE.exec(text.slice(s0, e0));
  // A whole token on the first line is wrapped only at one width, and
  // what follows it is no digest of its own.
  const width = pieces.slice(0, -1).every(([s, e]) => e - s === e0 - s0);
  const digest = pieces.slice(1).some(([s, e]) => isHexLike(text.slice(s, e)));
  if (alone && (!width || digest)) return false;
  const k = m.findIndex((g, j) => j > 0 && g !== undefined) - 1;
  const id = ALL_SHAPES[k]?.id ?? "credential";
  const [sl, el] = pieces[pieces.length - 1]!;
  // Every piece as wide: the token may go on below, too short to be read.
  const end = width && el - sl === e0 - s0
    ? shortTail(text, el, e0 - s0, joined)
    : el;
  edits.push({ start: s0, end, id });
  return true;
}

/** A whole string that is one token shape. */
const WHOLE_SHAPE = new RegExp(
  `^(?:${ALL_SHAPES.map((s) => `(${s.pattern})`).join("|")})$`,
);

/**
 * Azure AD client secrets whose `~` and dots break them into runs shorter
 * than the sampled pass looks at: found from their `Q~`-style head.
 */
function azureSecrets(text: string, edits: Edits): void {
  let at = hasCue(text, "~") ? text.indexOf("~") : -1;
  while (at >= 5) {
    if (AZURE_SECRET_HEAD.test(text.slice(at - 5, at + 1))) {
      AZURE_SECRET.lastIndex = at - 5;
      const m = AZURE_SECRET.exec(text);
      if (m) {
        edits.push({
          start: at - 5,
          end: at - 5 + m[0].length,
          id: "azure-client-secret",
        });
      }
    }
    at = text.indexOf("~", at + 1);
  }
}

/** A Neon password: shorter than the runs the sampled pass looks at. */
const NEON = /npg_[A-Za-z0-9]{12,}(?![A-Za-z0-9_-])/y;

/** Adds an edit for every Neon password (`npg_…`), found from its literal. */
function neonPasswords(text: string, edits: Edits): void {
  let at = hasCue(text, "npg_") ? text.indexOf("npg_") : -1;
  while (at >= 0) {
    if (at === 0 || TOKEN_CHAR[text.charCodeAt(at - 1)] !== 1) {
      NEON.lastIndex = at;
      const m = NEON.exec(text);
      if (m && charClasses(m[0].slice(4)) >= 2 && !isStandIn(m[0])) {
        edits.push({ start: at, end: at + m[0].length, id: "neon-password" });
      }
    }
    at = text.indexOf("npg_", at + 4);
  }
}

/** The org id before a Salesforce session id's `!`: 00D and 12 or 15 more. */
const SALESFORCE_ORG = /(?<![A-Za-z0-9])00D[A-Za-z0-9]{12}(?:[A-Za-z0-9]{3})?$/;
/** The session after the `!`: 40+ characters, dots inside, none last. */
const SALESFORCE_SESSION =
  /![A-Z][A-Za-z0-9._]{38,}[A-Za-z0-9_](?![A-Za-z0-9_-])/y;

/**
 * Adds an edit for every Salesforce session id (`sf org display`'s Access
 * Token, 00D…!AQ…): its `!` and dots cut it into runs shorter than the
 * sampled pass looks at, so it is found from its `!A`.
 */
function salesforceSessions(text: string, edits: Edits): void {
  let at = hasCue(text, "!A") ? text.indexOf("!A") : -1;
  while (at >= 15) {
    const org = SALESFORCE_ORG.exec(text.slice(Math.max(0, at - 19), at));
    if (org) {
      SALESFORCE_SESSION.lastIndex = at;
      const m = SALESFORCE_SESSION.exec(text);
      if (m) {
        edits.push({
          start: at - org[0].length,
          end: at + m[0].length,
          id: "credential",
        });
      }
    }
    at = text.indexOf("!A", at + 2);
  }
}

/** Adds an edit for every token shape and every high-entropy value. */
export function collectTokens(text: string, edits: Edits): void {
  azureSecrets(text, edits);
  neonPasswords(text, edits);
  salesforceSessions(text, edits);
  const n = text.length;
  const slash = { at: -1 };
  // Any run of MIN_RUN token characters covers one of every MIN_RUN-th
  // position, so only those are probed; a probe expands to its whole run.
  for (let i = MIN_RUN - 1; i < n; i += MIN_RUN) {
    if (TOKEN_CHAR[text.charCodeAt(i)] !== 1) continue;
    let a = i;
    while (a > 0 && TOKEN_CHAR[text.charCodeAt(a - 1)] === 1) a--;
    let b = i + 1;
    while (b < n && TOKEN_CHAR[text.charCodeAt(b)] === 1) b++;
    if (b - a < MIN_RUN) continue;
    tokenRun(text, a, b, slash, edits);
    i = b;
  }
}

/** Runs speech is checked for: a key pasted with no word before it. */
const SPOKEN_RUN = 32;
/** Object ids with words for a prefix (`chatcmpl-…`, `agent_msg_01…`). */
const WORD_PREFIXED = /^[a-z]{2,10}(?:[_-][a-z]{2,10})*[_-][A-Za-z0-9]{12,}$/;
/** The longest piece between `-` and `_` a pasted key holds, at least. */
const SPOKEN_PIECE = 20;
/** An IPFS CIDv0: a public content hash. */
const CID_V0 = /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/;
/**
 * An OpenSSH public key's base64 (`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5…`):
 * its first bytes are the length and name of the key's kind (ssh-…,
 * ecdsa-…, sk-…), so it opens with one of a few fixed prefixes.
 */
const SSH_PUBLIC_KEY = /^AAAA(?:[B-D]3NzaC1|E2VjZHNh|[GI]nNrLX)/;
/**
 * Whether the run of `length` at `a` is a Go module hash (go.sum's
 * `h1:<base64 of a SHA-256>=`), a public checksum.
 */
function goSumHash(text: string, a: number, length: number): boolean {
  return length === 43 && a >= 3 && text.startsWith("h1:", a - 3);
}
/**
 * A hex key (an Algolia admin key, a wallet's private key), 0x or not, or
 * Mailgun's (32 hex digits, then two dashed groups of eight).
 */
const HEX_KEY = /^(?:0x)?[0-9a-fA-F]{32,128}(?:-[0-9a-f]{8}){0,2}$/;
/**
 * What kind of key a sentence said the hex after it is: a secret one
 * (admin, private, signing, …) or an auth token (Twilio's), then up to
 * 100 characters, then `:`, `=`
 * or is ("my Algolia admin key, please add it …: <hex>", "use this
 * deployer private key for the sepolia script: <hex>").
 */
const SECRET_KEY_BEFORE =
  /(?:\b(?:admin|private|secret|signing|master|write|deploy(?:er)?|service|api|auth|encryption|wallet)[ _-]?(?:api[ _-]?)?key\b|\b(?:auth|hard-?coded|leaked|exposed|access|api|bot|refresh|session)[ _-]?token\b)[^\n]{0,100}?(?:[:=]|\bis)[ \t]*["'`]?$|\bkey[ \t]+["'`]?$/i;
/**
 * Keys whose hex is no secret, said right before it: "import the gpg key
 * <fingerprint>", "the primary key <hex>".
 */
const PUBLIC_KEY_KIND =
  /\b(?:gpg|pgp|gnupg|ssh|host|public|primary|foreign|sort|partition|idempotency|object|s3|lookup|routing|shard|row|composite|unique|dedup(?:e|lication)?|signing[ _-]key[ _-]id)[ _-]?key[ \t]+["'`]?$/i;
/** Words that say the hex is no key but a digest or an id of one. */
const DIGEST_WORD =
  /\b(?:fingerprint|hash(?:ed)?|sha\d*|md5|digest|checksum|commit|ids?|uuid|public|publishable|cache)\b/i;

/**
 * Whether the hex run at `a` is a key its line said was a secret one
 * ({@linkcode SECRET_KEY_BEFORE}), with no word on the line before it that
 * makes it a digest or an id ({@linkcode DIGEST_WORD}).
 */
function namedHexKey(text: string, a: number): boolean {
  const head = text.slice(Math.max(0, a - 160), a);
  const line = head.slice(head.lastIndexOf("\n") + 1);
  return SECRET_KEY_BEFORE.test(line) && !DIGEST_WORD.test(line) &&
    !PUBLIC_KEY_KIND.test(line);
}

/**
 * Adds an edit for every run of 32+ token characters in speech that reads
 * as a random key even with no key word before it ("ok the new one is
 * Kq2L…"), and for 32+ hex digits a sentence said were a secret key
 * ({@linkcode namedHexKey}). A random key has three character classes, a piece of 20+ between `-`/`_`, no
 * `/` (paths and URLs) unless it is base64 ({@linkcode slashedKey}), and none of the shapes an ordinary long run has
 * (digests, ids, names made of words, base64 of text, image data). Only for speech: tool output holds many
 * such runs that are no secret (ids, cursors, nonces).
 */
export function collectSpokenTokens(text: string, edits: Edits): void {
  const n = text.length;
  for (let i = SPOKEN_RUN - 1; i < n; i += SPOKEN_RUN) {
    if (TOKEN_CHAR[text.charCodeAt(i)] !== 1) continue;
    let a = i;
    while (a > 0 && TOKEN_CHAR[text.charCodeAt(a - 1)] === 1) a--;
    let b = i + 1;
    while (b < n && TOKEN_CHAR[text.charCodeAt(b)] === 1) b++;
    i = b;
    if (b - a < SPOKEN_RUN || b - a > 256) continue;
    const run = text.slice(a, b);
    if (HEX_KEY.test(run)) {
      if (namedHexKey(text, a)) {
        edits.push({ start: a, end: b, id: "credential" });
      }
      continue;
    }
    if (run.includes("/") && !slashedKey(text, a, run)) continue;
    if (charClasses(run) !== 3) continue;
    if (WORD_PREFIXED.test(run) || CID_V0.test(run)) continue;
    if (SSH_PUBLIC_KEY.test(run) || goSumHash(text, a, b - a)) continue;
    // Words joined by dashes with a short random tail
    // (baseline-browser-mapping-ipLq5lrP, a temp file's name).
    const pieces = run.split(/[-_]/);
    if (!pieces.some((p) => p.length >= SPOKEN_PIECE)) continue;
    if (!looksRandom(run)) continue;
    let end = b;
    // A slashed key is base64, whose `=` padding ends no token run.
    if (run.includes("/")) {
      while (end < n && end - b < 2 && text[end] === "=") end++;
    }
    edits.push({ start: a, end, id: "entropy" });
  }
}

/**
 * Whether the run at `a` holding `/` is base64 (a key `openssl rand
 * -base64 32` printed), not a path, an address or a digest: on its own
 * (after a blank, a bracket or a quote), base64 characters only, no `/` first, a piece between slashes of 20+ that is
 * no name made of words, and no {@linkcode DIGEST_WORD} on its line before it.
 */
function slashedKey(text: string, a: number, run: string): boolean {
  // A run that goes on from a host or a word (`docs.google.com/d/…`) is a path.
  if (a > 0 && !/[\s([{"'`]/.test(text[a - 1]!)) return false;
  if (run.startsWith("/") || !/^[A-Za-z0-9+\/]+$/.test(run)) return false;
  if (
    !run.split("/").some((p) =>
      p.length >= SPOKEN_PIECE && !isIdentifierLike(p)
    )
  ) return false;
  const head = text.slice(Math.max(0, a - 160), a);
  return !DIGEST_WORD.test(head.slice(head.lastIndexOf("\n") + 1));
}
