/**
 * Secret redaction for text a human or a log will see (dialog previews, audit lines). It errs on the side of
 * hiding: a redacted non-secret costs a little clarity, a shown secret cannot be taken back.
 */

export const REDACTED = "«redacted»";

// Name patterns start with a lookbehind so that a long run of word characters is tried once, not at every
// position (which would be quadratic on a long command).

/** Words that make a variable, option, header or JSON key name a secret holder. `auth` but not `author`. */
const SECRET_NAME = String.raw`(?:token|secret|passw|pwd|api[_-]?key|auth(?!or(?:s|ed)?\b)|credential|private)`;
const VALUE = String.raw`(?:"[^"]*"|'[^']*'|[^\s"',;)}\]]+)`;

interface Redaction {
	readonly pattern: RegExp;
	readonly replace: string | ((...groups: string[]) => string);
	/**
	 * Literal text, compared case-insensitively, at least one of which every match of `pattern` contains. Text
	 * holding none of any redaction's literals is returned as is, without running the patterns.
	 */
	readonly needs: readonly string[];
}

const SECRET_NAME_WORDS = [
	"token",
	"secret",
	"passw",
	"pwd",
	"api_key",
	"api-key",
	"apikey",
	"auth",
	"credential",
	"private",
];

const REDACTIONS: readonly Redaction[] = [
	// PEM private keys, also when the END line was cut off.
	{
		pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
		replace: REDACTED,
		needs: ["-----BEGIN "],
	},
	// Credentials in URLs: scheme://user:password@host
	{
		pattern: /(?<![a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]+@/g,
		replace: `$1${REDACTED}@`,
		needs: ["://"],
	},
	// Well-known token shapes.
	{
		pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
		replace: REDACTED,
		needs: ["gh", "github_pat_"],
	},
	{ pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: REDACTED, needs: ["sk-"] },
	{ pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, replace: REDACTED, needs: ["xox"] },
	{ pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: REDACTED, needs: ["AKIA", "ASIA"] },
	{ pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: REDACTED, needs: ["AIza"] },
	{ pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, replace: REDACTED, needs: ["glpat-"] },
	{ pattern: /\bnpm_[A-Za-z0-9]{30,}/g, replace: REDACTED, needs: ["npm_"] },
	{
		pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g,
		replace: REDACTED,
		needs: ["eyJ"],
	},
	// Authorization schemes wherever they appear.
	{
		pattern: /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
		replace: `$1 ${REDACTED}`,
		needs: ["bearer", "basic", "token"],
	},
	// HTTP headers and JSON/YAML keys: `X-Api-Key: v`, `"password": "v"`.
	{
		pattern: new RegExp(
			String.raw`((?<![A-Za-z0-9_-])"?[A-Za-z0-9_-]*${SECRET_NAME}[A-Za-z0-9_-]*"?\s*:\s*(?:(?:Bearer|Basic|Token)\s+)?)${VALUE}`,
			"gi",
		),
		replace: redactValue,
		needs: SECRET_NAME_WORDS,
	},
	// NAME=value and --name=value / --name value.
	{
		pattern: new RegExp(`((?<![A-Za-z0-9_])[A-Za-z0-9_]*${SECRET_NAME}[A-Za-z0-9_]*=)${VALUE}`, "gi"),
		replace: redactValue,
		needs: SECRET_NAME_WORDS,
	},
	{
		pattern: new RegExp(String.raw`(\s--?[A-Za-z0-9_-]*${SECRET_NAME}[A-Za-z0-9_-]*\s+)(?!-)${VALUE}`, "gi"),
		replace: redactValue,
		needs: SECRET_NAME_WORDS,
	},
	// curl -u user:password
	{ pattern: /(\s(?:-u|--user)\s+["']?[^:\s"']+:)[^\s"']+/g, replace: `$1${REDACTED}`, needs: ["-u"] },
	// mysql -psecret (the password glued to -p)
	{
		pattern: /\b((?:mysql\w*|mariadb\w*)\b[^\n|;&]*?\s-p)(?=\S)[^\s]+/g,
		replace: `$1${REDACTED}`,
		needs: ["mysql", "mariadb"],
	},
];

/** Code that runs (`$(…)`, backquotes, `<(…)`): a human must see it, whatever it is assigned to. */
const RUNS_CODE = /\$\(|`|[<>]\(/;

/**
 * `NAME=value` with the value hidden, unless the value is code: secrets are redacted, never commands. Inside
 * single quotes nothing runs, so `'a$(b'` is a secret like any other.
 */
function redactValue(match: string, prefix: string): string {
	const outsideSingleQuotes = match.slice(prefix.length).replace(/'[^']*'?/g, "");
	return RUNS_CODE.test(outsideSingleQuotes) ? match : `${prefix}${REDACTED}`;
}

/** Matches wherever some redaction could: text without a match needs no redaction at all. */
const ANY_NEEDED = new RegExp(
	[...new Set(REDACTIONS.flatMap((r) => r.needs))]
		.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
		.join("|"),
	"i",
);

export function redactSecrets(text: string): string {
	if (!ANY_NEEDED.test(text)) return text;
	let out = text;
	for (const { pattern, replace } of REDACTIONS) {
		out = typeof replace === "string" ? out.replace(pattern, replace) : out.replace(pattern, replace);
	}
	return out;
}
