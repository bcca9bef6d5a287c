import { marker, type SecretRule } from '../secret-rule.js';

const whole = (kind: string) => (): string => marker(kind);

/**
 * Self-identifying provider tokens. Prefixes and lengths follow gitleaks' default rule set
 * (github.com/gitleaks/gitleaks, config/gitleaks.toml, MIT; the rule id is named on each entry) and the
 * providers' own documentation; lengths are sometimes widened so that the providers' documented example
 * tokens match too (the corpus spec holds them). docs/security.md lists every rule.
 */
export const KNOWN_TOKEN_RULES: readonly SecretRule[] = [
  {
    // JSON Web Tokens (RFC 7519): base64url of '{"' is "eyJ"; header and payload, then the signature
    // (and the two more parts of a JWE).
    kind: 'jwt',
    triggers: ['eyJ'],
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+){0,2}/g,
    replace: whole('jwt'),
  },
  {
    // gitleaks anthropic-api-key, anthropic-admin-api-key (sk-ant-api03-…, sk-ant-admin01-…).
    kind: 'anthropic_key',
    triggers: ['sk-ant-'],
    pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
    replace: whole('anthropic_key'),
  },
  {
    // gitleaks openai-api-key; project, service-account and admin keys as well as legacy sk-… keys.
    kind: 'openai_key',
    triggers: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g,
    replace: whole('openai_key'),
  },
  {
    // gitleaks stripe-access-token (secret and restricted keys; publishable pk_ keys are public).
    kind: 'stripe_key',
    triggers: ['_live_', '_test_', '_prod_'],
    pattern: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}/g,
    replace: whole('stripe_key'),
  },
  {
    kind: 'stripe_webhook_secret',
    triggers: ['whsec_'],
    pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g,
    replace: whole('stripe_webhook_secret'),
  },
  {
    // gitleaks square-access-token (EAAA…, sq0atp-…) and Square's OAuth application secret (sq0csp-…).
    kind: 'square_token',
    triggers: ['EAAA', 'sq0atp-', 'sq0csp-'],
    pattern: /\b(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,60}/g,
    replace: whole('square_token'),
  },
  {
    // gitleaks aws-access-token: long-term (AKIA), temporary (ASIA) and the other documented id prefixes.
    kind: 'aws_access_key_id',
    triggers: ['A3T', 'AKIA', 'ASIA', 'ABIA', 'ACCA'],
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    replace: whole('aws_access_key_id'),
  },
  {
    // gitleaks aws-amazon-bedrock-api-key-long-lived.
    kind: 'aws_bedrock_key',
    triggers: ['ABSK'],
    pattern: /\bABSK[A-Za-z0-9+/]{109,269}={0,2}/g,
    replace: whole('aws_bedrock_key'),
  },
  {
    // gitleaks gcp-api-key.
    kind: 'google_api_key',
    triggers: ['AIza'],
    pattern: /\bAIza[0-9A-Za-z_-]{30,}/g,
    replace: whole('google_api_key'),
  },
  {
    kind: 'google_oauth_token',
    triggers: ['ya29.'],
    pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g,
    replace: whole('google_oauth_token'),
  },
  {
    // gitleaks azure-ad-client-secret: three characters, a digit, "Q~", then 31–34 more.
    kind: 'azure_client_secret',
    triggers: ['Q~'],
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
    replace: whole('azure_client_secret'),
  },
  {
    // gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat.
    kind: 'github_token',
    triggers: ['gh', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
    replace: whole('github_token'),
  },
  {
    // gitleaks gitlab-pat, -pat-routable, -deploy-token, -runner-authentication-token, -ptt, -rrt,
    // -cicd-job-token, -oauth-app-secret, -feed-token, -incoming-mail-token, -kubernetes-agent-token,
    // -scim-token, -feature-flag-client-token.
    kind: 'gitlab_token',
    triggers: [
      'glpat-',
      'gldt-',
      'glrt-',
      'glptt-',
      'glcbt-',
      'gloas-',
      'glft-',
      'glimt-',
      'glagent-',
      'glsoat-',
      'glffct-',
      'GR1348941',
    ],
    pattern:
      /\b(?:gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent|soat|ffct)-[A-Za-z0-9_.-]{20,}|GR1348941[A-Za-z0-9_-]{20,})/g,
    replace: whole('gitlab_token'),
  },
  {
    // Bitbucket app passwords (ATBB…) and Atlassian API / access tokens (ATATT3…, ATCTT3…; gitleaks
    // atlassian-api-token).
    kind: 'atlassian_token',
    triggers: ['ATBB', 'ATATT3', 'ATCTT3'],
    pattern: /\b(?:ATBB|ATATT3|ATCTT3)[A-Za-z0-9_=.-]{24,}/g,
    replace: whole('atlassian_token'),
  },
  {
    // gitleaks slack-bot-token, -user-token, -app-token, -legacy-*, -config-access-token.
    kind: 'slack_token',
    triggers: ['xox', 'xapp-'],
    pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g,
    replace: whole('slack_token'),
  },
  {
    // gitleaks slack-webhook-url.
    kind: 'slack_webhook',
    triggers: ['https://hooks.slack.com/'],
    pattern: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]+/g,
    replace: (_m, prefix) => `${prefix}${marker('slack_webhook')}`,
  },
  {
    // Discord webhook URLs carry their token in the path; the id before it stays.
    kind: 'discord_webhook',
    triggers: ['discord'],
    pattern: /(https?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/\d+\/)[A-Za-z0-9_-]+/g,
    replace: (_m, prefix) => `${prefix}${marker('discord_webhook')}`,
  },
  {
    // Discord bot tokens: base64 user id, timestamp, HMAC. Common enough in shape to need context,
    // as gitleaks' discord-api-token does.
    kind: 'discord_token',
    triggers: ['discord'],
    context: /discord/i,
    pattern: /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])/gi,
    replace: whole('discord_token'),
  },
  {
    // gitleaks telegram-bot-api-token: the bot's numeric id, a colon, then "A" and the secret
    // (Telegram's own documented example is one character shorter than live tokens, hence 32–35).
    kind: 'telegram_bot_token',
    triggers: [':A'],
    pattern: /(?<![0-9])[0-9]{5,16}:A[A-Za-z0-9_-]{32,35}(?![A-Za-z0-9_-])/g,
    replace: whole('telegram_bot_token'),
  },
  {
    // gitleaks twilio-api-key and Twilio account SIDs.
    kind: 'twilio_key',
    triggers: ['SK', 'AC'],
    pattern: /\b(?:SK[0-9a-fA-F]{32}|AC[0-9a-f]{32})\b/g,
    replace: whole('twilio_key'),
  },
  {
    // gitleaks sendgrid-api-token.
    kind: 'sendgrid_key',
    triggers: ['SG.'],
    pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
    replace: whole('sendgrid_key'),
  },
  {
    // gitleaks npm-access-token.
    kind: 'npm_token',
    triggers: ['npm_'],
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    replace: whole('npm_token'),
  },
  {
    // gitleaks pypi-upload-token.
    kind: 'pypi_token',
    triggers: ['pypi-AgEIcHlwaS5vcmc'],
    pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g,
    replace: whole('pypi_token'),
  },
  {
    // gitleaks huggingface-access-token.
    kind: 'huggingface_token',
    triggers: ['hf_'],
    pattern: /\bhf_[A-Za-z0-9]{30,}\b/g,
    replace: whole('huggingface_token'),
  },
  {
    // gitleaks vault-service-token (hvs.), vault-batch-token (hvb.) and HashiCorp recovery tokens (hvr.).
    kind: 'vault_token',
    triggers: ['hvs.', 'hvb.', 'hvr.'],
    pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/g,
    replace: whole('vault_token'),
  },
  {
    // gitleaks digitalocean-pat, -access-token, -refresh-token.
    kind: 'digitalocean_token',
    triggers: ['_v1_'],
    pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g,
    replace: whole('digitalocean_token'),
  },
  {
    // gitleaks shopify-access-token, -custom-access-token, -private-app-access-token, -shared-secret.
    kind: 'shopify_token',
    triggers: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
    replace: whole('shopify_token'),
  },
  {
    // gitleaks databricks-api-token.
    kind: 'databricks_token',
    triggers: ['dapi'],
    pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g,
    replace: whole('databricks_token'),
  },
  {
    // gitleaks postman-api-token.
    kind: 'postman_token',
    triggers: ['PMAK-'],
    pattern: /\bPMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}\b/g,
    replace: whole('postman_token'),
  },
  {
    // More self-identifying prefixes from gitleaks' default rule set (rule ids in order): linear-api-key,
    // notion (ntn_), doppler-api-token, pulumi-api-token, grafana-cloud-api-token,
    // grafana-service-account-token, new-relic-user-api-key, sentry-org-token, sentry-user-token,
    // dynatrace-api-token, flyio-access-token, planetscale-api-token / -password / -oauth-token,
    // age-secret-key, supabase (sbp_), hashicorp-tf-api-token, replicate (r8_), groq (gsk_), perplexity
    // (pplx-), xai (xai-), mailgun-private-api-token, rubygems-api-token, nuget (oy2), dockerhub (dckr_pat_),
    // heroku-api-key-v2, shippo-api-token, mapbox secret token (sk.eyJ), huggingface-organization-api-token,
    // prefect-api-token, readme-api-token, typeform-api-token, frameio-api-token, easypost-api-token,
    // duffel-api-token, launchdarkly (api-), scalingo-api-token, openshift-user-token, octopus-deploy.
    kind: 'vendor_token',
    triggers: [
      'lin_api_',
      'ntn_',
      'dp.',
      'pul-',
      'glc_',
      'glsa_',
      'NRAK-',
      'sntrys_',
      'sntryu_',
      'dt0c01.',
      'fo1_',
      'pscale_',
      'AGE-SECRET-KEY-1',
      'sbp_',
      'atlasv1',
      'r8_',
      'gsk_',
      'pplx-',
      'xai-',
      'key-',
      'rubygems_',
      'oy2',
      'dckr_pat_',
      'HRKU-',
      'shippo_',
      'sk.eyJ',
      'api_org_',
      'pnu_',
      'rdme_',
      'tfp_',
      'fio-u-',
      'EZAK',
      'duffel_',
      'tk_us_',
      'sha256~',
      'API-',
    ],
    pattern: new RegExp(
      [
        String.raw`\blin_api_[A-Za-z0-9]{40}\b`,
        String.raw`\bntn_[0-9]{11}[A-Za-z0-9]{32}[A-Za-z0-9]{3}\b`,
        String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`,
        String.raw`\bpul-[a-f0-9]{40}\b`,
        String.raw`\bglc_[A-Za-z0-9+/]{32,400}={0,2}`,
        String.raw`\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b`,
        String.raw`\bNRAK-[A-Z0-9]{27}\b`,
        String.raw`\bsntrys_eyJ[A-Za-z0-9+/=_-]{40,}`,
        String.raw`\bsntryu_[a-f0-9]{64}\b`,
        String.raw`\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}\b`,
        String.raw`\bfo1_[\w-]{43}\b`,
        String.raw`\bpscale_(?:tkn|pw|oauth)_[\w=.-]{32,64}`,
        String.raw`\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b`,
        String.raw`\bsbp_[a-f0-9]{40}\b`,
        String.raw`\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`,
        String.raw`\br8_[A-Za-z0-9]{37}\b`,
        String.raw`\bgsk_[A-Za-z0-9]{52}\b`,
        String.raw`\bpplx-[A-Za-z0-9]{48}\b`,
        String.raw`\bxai-[A-Za-z0-9]{80}\b`,
        String.raw`\bkey-[a-f0-9]{32}\b`,
        String.raw`\brubygems_[a-f0-9]{48}\b`,
        String.raw`\boy2[a-z0-9]{43}\b`,
        String.raw`\bdckr_pat_[\w-]{27}\b`,
        String.raw`\bHRKU-[A-Za-z0-9_-]{60}\b`,
        String.raw`\bshippo_(?:live|test)_[a-f0-9]{40}\b`,
        String.raw`\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}`,
        String.raw`\bapi_org_[A-Za-z]{34}\b`,
        String.raw`\bpnu_[A-Za-z0-9]{36}\b`,
        String.raw`\brdme_[a-z0-9]{70}\b`,
        String.raw`\btfp_[A-Za-z0-9_.=-]{59}\b`,
        String.raw`\bfio-u-[A-Za-z0-9_=-]{64}\b`,
        String.raw`\bEZAK[A-Za-z0-9]{54}\b`,
        String.raw`\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}`,
        String.raw`\btk_us_[A-Za-z0-9_-]{40,}`,
        String.raw`\bsha256~[A-Za-z0-9_-]{43}\b`,
        String.raw`\bAPI-[A-Z0-9]{26}\b`,
      ].join('|'),
      'g',
    ),
    replace: whole('vendor_token'),
  },
];
