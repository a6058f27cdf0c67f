/** The system's Chromium (scripts/install-chromium.sh), a fresh profile, loopback only. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface BrowserProblem {
	kind: 'console' | 'pageerror';
	text: string;
	/** The resource the console message is about, when it names one. */
	url?: string;
	stack?: string;
}

export interface EditorBrowser {
	page: Page;
	problems: BrowserProblem[];
	close(): Promise<void>;
}

function chromiumPath(): string {
	const candidates = process.env.BF_CHROMIUM ? [process.env.BF_CHROMIUM] : CHROMIUM_PATHS;
	const found = candidates.find((candidate) => fs.existsSync(candidate));
	if (!found) {
		throw new Error(
			`No Chromium at ${candidates.join(' or ')}: run \`bash scripts/install-chromium.sh\` ` +
				'(Debian/Ubuntu) or set BF_CHROMIUM to a Chromium or Chrome binary.',
		);
	}
	return found;
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

export async function launchBrowser(): Promise<EditorBrowser> {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bf-editor-chromium-'));
	let context: BrowserContext;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath: chromiumPath(),
			headless: true,
			args: CHROMIUM_FLAGS,
			viewport: { width: 1280, height: 800 },
			deviceScaleFactor: 1,
			locale: 'en-US',
			timezoneId: 'UTC',
		});
	} catch (error) {
		fs.rmSync(profile, { recursive: true, force: true });
		throw error;
	}
	const page = context.pages()[0] ?? (await context.newPage());
	// n8n's editor fetches banners, templates and community packages' npm pages: nothing leaves the
	// machine (the requests fail at once instead of waiting for a network that may not be there).
	await context.route(
		(url) => !isLoopback(url),
		(route) => route.abort(),
	);
	const problems = recordProblems(page);
	return {
		page,
		problems,
		close: async () => {
			await context.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

function recordProblems(page: Page): BrowserProblem[] {
	const problems: BrowserProblem[] = [];
	page.on('console', (message) => {
		if (message.type() !== 'error') return;
		const url = message.location().url || undefined;
		problems.push({ kind: 'console', text: message.text(), url });
	});
	page.on('pageerror', (error) => {
		problems.push({ kind: 'pageerror', text: error.message, stack: error.stack });
	});
	return problems;
}
