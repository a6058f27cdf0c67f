/**
 * The REAL n8n-core PollContext over a real Workflow, against a list service the test scripts
 * item by item. Static data as n8n keeps it (docs/trigger.md, "Polling trigger"): one Workflow
 * per activation, saved when a poll emits and at activation.
 */
import type * as http from 'http';

import { PollContext } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { BusinessFinancePollingTrigger } from '../../nodes/BusinessFinance/BusinessFinancePollingTrigger.node';
import { activeTrigger, makeAdditionalData } from '../helpers/n8n';
import { answer, scriptedServer, type ScriptedServer } from '../helpers/scripted-server';

let counter = 0;

export class PollHarness {
	readonly nodeType = new BusinessFinancePollingTrigger();
	private readonly active: ReturnType<typeof activeTrigger>;
	saved: IDataObject = {}; // as n8n's database holds it
	private workflow: Workflow;

	constructor(
		parameters: IDataObject,
		baseUrl: string,
		apiKey = 'svc_polling_test', // one per test that blocks it (a 429): the limiter is per key
		private readonly budgetMs = 30_000,
	) {
		const id = `poll${++counter}`;
		const node = {
			id: `node-${id}`,
			name: 'Business Finance Polling Trigger',
			parameters: { event: 'treasury.transaction.created', options: {}, ...parameters },
		};
		this.active = activeTrigger(this.nodeType, node, { apiKey, baseUrl });
		this.workflow = this.active.load(id, this.saved);
	}

	get node(): INode {
		return this.active.node;
	}

	private load(): Workflow {
		return this.active.load(this.workflow.id, this.saved);
	}

	/** n8n rebuilt the workflow from its database (a restart, a re-activation). */
	restart(): void {
		this.workflow = this.load();
	}

	private save(): void {
		if (this.workflow.staticData.__dataChanged !== true) return;
		this.saved = JSON.parse(JSON.stringify(this.workflow.staticData));
		delete this.saved.__dataChanged;
		this.workflow.staticData.__dataChanged = false;
	}

	private context(mode: WorkflowExecuteMode, workflow: Workflow): PollContext {
		const additionalData = makeAdditionalData(this.active.credentialsHelper);
		const fail = () => {
			throw new Error('the test calls poll() itself');
		};
		return new PollContext(
			workflow,
			this.node,
			additionalData,
			mode,
			'activate',
			fail,
			fail,
			undefined,
			undefined,
			undefined,
			() => this.budgetMs,
		);
	}

	/** Static data saved only when it emitted, as n8n's __emit does. */
	async poll(): Promise<IDataObject[]> {
		const result = await this.nodeType.poll.call(this.context('trigger', this.workflow));
		if (result === null) return [];
		this.save();
		return result[0].map((item: INodeExecutionData) => item.json);
	}

	/** The activation's poll: n8n saves the static data after it, whatever it returned. */
	async activate(): Promise<IDataObject[]> {
		const items = await this.poll();
		this.save();
		return items;
	}

	/** Fetch Test Event: manual mode, on a copy of the static data (n8n does not save it). */
	async fetchTestEvent(): Promise<IDataObject[]> {
		const copy = this.load();
		copy.staticData = JSON.parse(JSON.stringify(this.workflow.staticData));
		const result = await this.nodeType.poll.call(this.context('manual', copy));
		expect(copy.staticData).toEqual(this.workflow.staticData);
		return result === null ? [] : result[0].map((item: INodeExecutionData) => item.json);
	}

	state(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData[`node:${this.node.name}`] ?? {}));
	}
}

export interface ListItem {
	id: string;
	created_at: string;
	updated_at?: string;
	type?: string;
	[key: string]: unknown;
}

type Request = { path: string; query: URLSearchParams; index: number }; // index in `requests`

/**
 * Ordered by (created_at, id) as the contract says. `onRequest` runs before each answer (to
 * insert items while a poll pages); a number it returns is sent as that status, `{ body }` as 200.
 */
class ScriptedList {
	transactions: ListItem[] = [];
	vendors: ListItem[] = [];
	onRequest?: (request: Request) => number | { body: unknown } | void;
	/** Lists newest first, as a service may that the API document does not forbid. */
	newestFirst = false;
	requests: Request[] = [];
	server!: ScriptedServer;

	get baseUrl(): string {
		return this.server.baseUrl;
	}

	add(list: 'transactions' | 'vendors', ...items: ListItem[]): void {
		this[list] = this[list].concat(items).sort(byCreated);
	}

	handle(req: http.IncomingMessage, res: http.ServerResponse): void {
		const url = new URL(req.url ?? '/', 'http://x');
		const request = { path: url.pathname, query: url.searchParams, index: this.requests.length };
		this.requests.push(request);
		const status = this.onRequest?.(request);
		if (typeof status === 'object') return answer(res, 200, status.body);
		if (typeof status === 'number') {
			const code = status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR';
			const headers: Record<string, string> =
				status === 429 ? { 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60) } : {};
			return answer(res, status, { error: { code, message: 'scripted failure' } }, headers);
		}
		const list = url.pathname === '/v1/vendors' ? this.vendors : this.transactions;
		const type = url.searchParams.get('type');
		const rows = list.filter((item) => !type || item.type === type);
		if (this.newestFirst) rows.reverse();
		const page = Number(url.searchParams.get('page') ?? 1);
		const limit = Number(url.searchParams.get('limit') ?? 50);
		const data = rows.slice((page - 1) * limit, page * limit);
		const meta = { page, limit, total: rows.length, has_more: page * limit < rows.length };
		answer(res, 200, { data, meta });
	}
}

/** Started once per file, emptied before each test. */
export function useScriptedList(): ScriptedList {
	const list = new ScriptedList();
	beforeAll(async () => {
		list.server = await scriptedServer((req, res) => list.handle(req, res));
	});
	afterAll(async () => await list.server.close());
	beforeEach(() =>
		Object.assign(list, {
			...{ transactions: [], vendors: [], onRequest: undefined, requests: [] },
			newestFirst: false,
		}),
	);
	return list;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A stamp as the service means it: [its whole seconds in ms (no offset: UTC), its fraction]. */
function parseInstant(stamp: string): [number, string] {
	const match = /^(.*?:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(stamp);
	if (!match) return [Number.NaN, ''];
	return [Date.parse(match[1] + (match[3] ?? 'Z')), (match[2] ?? '').padEnd(12, '0')];
}
const instants = new Map<string, [number, string]>(); // lists of 100,000 are sorted and filtered
function instant(stamp: unknown): [number, string] {
	const text = String(stamp);
	let known = instants.get(text);
	if (!known) instants.set(text, (known = parseInstant(text)));
	return known;
}

/** The contract's order: created_at as an instant to the last digit, then id (unreadable last). */
const byCreated = (a: ListItem, b: ListItem): number => {
	const [[sa, fa], [sb, fb]] = [instant(a.created_at), instant(b.created_at)];
	const [na, nb] = [Number.isNaN(sa), Number.isNaN(sb)];
	if (na || nb) return na === nb ? compare(a.id, b.id) : na ? 1 : -1;
	return sa - sb || compare(fa, fb) || compare(a.id, b.id);
};

/** An ISO timestamp `ms` after a fixed start (distinct timestamps unless a test repeats them). */
export const stamp = (ms: number): string => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
