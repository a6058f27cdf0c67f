/**
 * The browser console errors n8n's editor logs by itself on the editor test's path, with this
 * package or without it. The test fails on every other one. Each entry says why it is n8n's
 * (seen on 2.40.7, 2.41.1 and 1.123.81, with the browser kept off the network).
 */
import type { BrowserProblem } from './browser';

interface KnownError {
	why: string;
	matches(problem: BrowserProblem): boolean;
}

const pathOf = (url: string | undefined) => (url ? new URL(url).pathname : '');
const offMachine = (url: string | undefined) =>
	!!url && !['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

const KNOWN: KnownError[] = [
	{
		why: 'the sign-in page asks for a session first and gets 401',
		matches: (p) => /status of 401/.test(p.text) && pathOf(p.url) === '/rest/login',
	},
	{
		why: "requests off the machine, aborted by the test (n8n's banners and news, the npm page of installed community packages)",
		matches: (p) => /net::ERR_FAILED/.test(p.text) && offMachine(p.url),
	},
	{
		why: '1.x logs the banner request the test aborted',
		matches: (p) => p.text.startsWith('Failed to fetch dynamic banners'),
	},
	{
		why: "1.x asks for the AI assistant's sessions, a licensed feature (403, then a log line)",
		matches: (p) =>
			pathOf(p.url) === '/rest/ai/sessions/metadata' ||
			p.text.startsWith('Failed to fetch sessions metadata'),
	},
	{
		why: '1.x asks for the last successful execution of a workflow that has none (404)',
		matches: (p) => /^\/rest\/workflows\/[^/]+\/executions\/last-successful$/.test(pathOf(p.url)),
	},
	{
		why: "1.x's version check reads settings that are absent with version notifications off",
		matches: (p) => p.kind === 'pageerror' && /versions\.store/.test(p.stack ?? ''),
	},
	{
		why: 'the editor asks for an output-schema preview of a node that has not run; 404 means there is none (the optional __schema__ files this package, like most community nodes, does not ship)',
		matches: (p) =>
			/status of 404/.test(p.text) &&
			/^\/schemas\/[^/]+\/[\d.]+(\/[^/]+){0,2}\.json$/.test(pathOf(p.url)),
	},
	{
		why: "2.x's node panel warns that injectNDVStore() was called outside its provider",
		matches: (p) => /injectNDVStore/.test(p.text),
	},
];

export function unknownProblems(problems: BrowserProblem[]): BrowserProblem[] {
	return problems.filter((problem) => !KNOWN.some((known) => known.matches(problem)));
}
