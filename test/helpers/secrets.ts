import { inspect } from 'util';

/** How a secret can travel: as it is, in base64 (a Basic header, a data URL) and URL-encoded. */
const formsOf = (secret: string) => [
	secret,
	Buffer.from(secret).toString('base64'),
	encodeURIComponent(secret),
];

/**
 * The one "no secret anywhere" check: fails if any of `secrets`, in any of its forms, shows in
 * `value`: a string as it is, anything else serialised as JSON and as `util.inspect` writes it
 * (what a log shows, non-JSON fields included).
 */
export function expectNowhereIn(value: unknown, ...secrets: string[]): void {
	const text =
		typeof value === 'string'
			? value
			: `${JSON.stringify(value)}\n${inspect(value, { depth: 10 })}`;
	for (const form of secrets.flatMap(formsOf)) expect(text).not.toContain(form);
}
