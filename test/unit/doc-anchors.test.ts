/** `#readme` on the repository's address is GitHub's own anchor: the README as a whole. */
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';

const ROOT = join(__dirname, '..', '..');
const REPOSITORY = 'https://github.com/business-finance/n8n-nodes-business-finance';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
	const text = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), repeated ones numbered. */
function anchorsIn(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let inCode = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) inCode = !inCode;
		const heading = !inCode && /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const anchor = anchorOf(heading[1]);
		const count = seen.get(anchor) ?? 0;
		anchors.add(count ? `${anchor}-${count}` : anchor);
		seen.set(anchor, count + 1);
	}
	return anchors;
}

function filesUnder(dir: string, suffix: string): string[] {
	return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return filesUnder(path, suffix);
		return entry.name.endsWith(suffix) ? [path] : [];
	});
}

/** [where, file the link points at (from the root), anchor] for each link with an anchor. */
function links(): Array<[string, string, string]> {
	const found: Array<[string, string, string]> = [];
	const packageFiles = [...filesUnder('nodes', '.node.json'), ...filesUnder('credentials', '.ts')];
	for (const file of packageFiles) {
		const text = readFileSync(join(ROOT, file), 'utf8');
		for (const [, anchor] of text.matchAll(new RegExp(`${REPOSITORY}#([\\w-]+)`, 'g'))) {
			if (anchor !== 'readme') found.push([file, 'README.md', anchor]);
		}
	}
	const documents = [
		'README.md',
		'CONTRIBUTING.md',
		'examples/README.md',
		...filesUnder('docs', '.md'),
	];
	for (const file of documents) {
		const text = readFileSync(join(ROOT, file), 'utf8');
		for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s:]*)#([^)\s]+)\)/g)) {
			const pointed = target ? normalize(join(dirname(file), target)) : file;
			found.push([file, relative('.', pointed), anchor]);
		}
	}
	return found;
}

describe('documentation anchors', () => {
	const all = links();

	it('are found in the codex files, the credential and the documents', () => {
		const where = new Set(all.map(([file]) => file));
		for (const file of ['README.md', 'credentials/BusinessFinanceApi.credentials.ts'])
			expect(where).toContain(file);
		for (const file of filesUnder('nodes', '.node.json')) expect(where).toContain(file);
	});

	it.each(all)('%s -> %s#%s is a heading there', (_from, target, anchor) => {
		expect(existsSync(join(ROOT, target))).toBe(true);
		expect([...anchorsIn(readFileSync(join(ROOT, target), 'utf8'))]).toContain(anchor);
	});

	// The editor's Docs link is the codex's primary documentation with n8n's tracking query added
	// (`<url>?utm_source=…`, n8n-editor-ui's NodeSettings): after a `#` it would break the anchor.
	it.each(filesUnder('nodes', '.node.json'))(
		'%s: its Docs link has no anchor, and names a file here',
		(file) => {
			const codex = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
			const url: string = codex.resources.primaryDocumentation[0].url;
			expect(url).not.toContain('#');
			expect(url.startsWith(`${REPOSITORY}/blob/main/`)).toBe(true);
			expect(existsSync(join(ROOT, url.slice(`${REPOSITORY}/blob/main/`.length)))).toBe(true);
		},
	);

	it('reads anchors as GitHub makes them', () => {
		expect(anchorOf("Flows started by the service's events")).toBe(
			'flows-started-by-the-services-events',
		);
		expect(anchorOf('AI agents: finance tools inside n8n and over MCP')).toBe(
			'ai-agents-finance-tools-inside-n8n-and-over-mcp',
		);
		expect(anchorOf('Limits: rate limits, retries and paging')).toBe(
			'limits-rate-limits-retries-and-paging',
		);
		expect([...anchorsIn('# A\n```\n# not\n```\n## A\n')]).toEqual(['a', 'a-1']);
	});
});
