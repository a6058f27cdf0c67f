// The sandbox's faults are seeded (the same every run); it processes none of the faulted requests.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type * as TransportModule from '../../nodes/BusinessFinance/transport';
import type { FaultKind } from '../../sandbox/types';
import { RETRY_ADVICE } from '../helpers/outcomes';
import { useEnv, VALID } from '../node/support';

// A new transport per test: one per n8n process would carry one test's rate limit into the next.
jest.mock('../../nodes/BusinessFinance/transport', () => {
	const actual = jest.requireActual<typeof TransportModule>(
		'../../nodes/BusinessFinance/transport',
	);
	const mocked = {
		...actual,
		renewTransport: () => void Object.assign(mocked, actual.createTransport()),
	};
	return mocked;
});

const env = useEnv();
// After useEnv's reset (no data, no faults, an empty log): fresh rate-limit counters on both sides.
beforeEach(async () => {
	await env.sb.admin.setRateLimit({ limit: 100_000, windowSeconds: 60, retryAfter: false });
	(
		jest.requireMock('../../nodes/BusinessFinance/transport') as { renewTransport: () => void }
	).renewTransport();
});

async function allVendors(): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const data = await env.api<IDataObject[]>('GET', `/v1/vendors?page=${page}&limit=100`);
		out.push(...data);
		if (data.length < 100) return out;
	}
}

const vendorCreate = {
	resource: 'vendor',
	operation: 'create',
	name: '={{ $json.name }}',
	paymentMethod: 'crypto',
	additionalFields: { walletAddress: VALID.evm, walletChain: 'ethereum' },
};
const CRYPTO = { payment_method: 'crypto', wallet_address: VALID.evm, wallet_chain: 'ethereum' };
const vendorList = { resource: 'vendor', operation: 'getAll', returnAll: true, filters: {} };

const M = 40;
const items = (prefix: string) => Array.from({ length: M }, (_, i) => ({ name: `${prefix} ${i}` }));
const fault = (kind: FaultKind, rate: number, method: string) =>
	env.sb.admin.addFault({ kind, rate, pathPrefix: '/v1/vendors', method });
// [fault, the status the sandbox logs for it (0: no answer), what the user is told]
const KINDS = [
	['status500', 500, /INTERNAL_ERROR|500/],
	['status503', 503, /SERVICE_UNAVAILABLE|503/],
	['reset', 0, /Could not reach the Business Finance service/],
	['malformed', 200, /not valid JSON/],
] as const;

describe('vendor create with 10 % of the POSTs failing (Continue On Fail)', () => {
	it.each(KINDS)(
		'%s: one POST per item, no duplicates, each failed item reported',
		async (kind, loggedStatus, message) => {
			await fault(kind, 0.1, 'POST');
			const input = items(kind);

			const res = await env.run(vendorCreate, { items: input, continueOnFail: true });

			expect(res.error).toBeUndefined();
			expect(res.items).toHaveLength(M);
			res.items.forEach((item, i) => expect(item.pairedItem).toEqual({ item: i }));
			const failed = res.items.filter((i) => typeof i.json.error === 'string');
			const created = res.items.filter((i) => typeof i.json.error !== 'string');
			expect(failed.length).toBeGreaterThanOrEqual(1); // the seeded faults fired
			for (const f of failed) {
				expect(f.json.error).toMatch(message);
				expect(f.json.description).toMatch(
					/Outcome unknown: .*vendor may have been created\. Search the vendors for its name/,
				);
				expect(f.json.description).not.toMatch(RETRY_ADVICE);
			}

			// Exactly one POST per item: nothing retried after a 5xx, a reset or an unreadable answer.
			const posts = (await env.requests()).filter((r) => r.method === 'POST');
			expect(posts).toHaveLength(M);
			// The sandbox logs no body for a faulted request (it stops before reading it).
			const faulted = posts.filter((r) => r.body === null);
			expect(faulted).toHaveLength(failed.length);
			expect(posts.filter((r) => r.body !== null).map((r) => (r.body as IDataObject).name)).toEqual(
				created.map((i) => input[(i.pairedItem as { item: number }).item].name),
			);
			if (kind !== 'malformed') {
				expect(posts.filter((r) => r.status === loggedStatus)).toHaveLength(failed.length);
				expect(posts.filter((r) => r.status === 201)).toHaveLength(created.length);
			}

			const onService = await allVendors();
			expect(onService).toHaveLength(created.length);
			expect(new Set(onService.map((v) => v.id))).toEqual(new Set(created.map((i) => i.json.id)));
		},
		60_000,
	);

	it('Continue On Fail off: stops at the first failed item with a clear error naming it; nothing after it is sent', async () => {
		await fault('status503', 0.1, 'POST'); // seeded: the first POST to fail is item 18's
		const input = items('stop');

		const res = await env.run(vendorCreate, { items: input });

		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/SERVICE_UNAVAILABLE/);
		expect(String(res.error!.description)).toMatch(
			/Outcome unknown: .*vendor may have been created/,
		);
		const failedIndex = res.error!.context.itemIndex as number;
		const log = await env.requests();
		expect(log).toHaveLength(failedIndex + 1);
		expect(log[failedIndex].status).toBe(503);
		expect(log[failedIndex].body).toBeNull(); // a faulted request: not processed
		expect(log.slice(0, failedIndex).every((r) => r.status === 201)).toBe(true);
		expect(log.slice(0, failedIndex).map((r) => (r.body as IDataObject).name)).toEqual(
			input.slice(0, failedIndex).map((i) => i.name),
		);
		expect(failedIndex).toBeGreaterThan(0);
		expect(await allVendors()).toHaveLength(failedIndex);
	}, 60_000);
});

describe('list all 2,500 vendors (25 pages of 100) with page requests failing', () => {
	const N = 2500;
	const PAGES = N / 100;
	async function seed(): Promise<Set<string>> {
		await env.sb.admin.seedVendors(N);
		const ids = new Set((await allVendors()).map((v) => String(v.id)));
		expect(ids.size).toBe(N);
		return ids;
	}

	it.each(KINDS)(
		'10 %% %s: every vendor exactly once, each page fetched once successfully',
		async (kind, loggedStatus) => {
			const seeded = await seed();
			await fault(kind, 0.1, 'GET');

			const res = await env.run(vendorList);

			expect(res.error).toBeUndefined();
			const ids = res.items.map((i) => String((i.json as IDataObject).id));
			expect(ids).toHaveLength(N); // N ids that are the N seeded: none twice,
			expect(new Set(ids)).toEqual(seeded); // none missing, none foreign
			expect(res.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);

			const log = await env.requests();
			expect(log.every((r) => r.method === 'GET' && r.path === '/v1/vendors')).toBe(true);
			const pages = log.map((r) => Number(r.query.page));
			expect(new Set(pages)).toEqual(new Set(Array.from({ length: PAGES }, (_, i) => i + 1)));
			expect(log.every((r) => r.query.limit === '100')).toBe(true);
			for (let p = 1; p <= PAGES; p++)
				expect(pages.filter((x) => x === p).length).toBeLessThanOrEqual(4);
			// The faults did fire (seeded: 4 of the requests), and every extra request is a retry of one.
			const retries = log.length - PAGES;
			expect(retries).toBeGreaterThanOrEqual(1);
			if (kind !== 'malformed') {
				expect(log.filter((r) => r.status === loggedStatus)).toHaveLength(retries);
				expect(log.filter((r) => r.status === 200)).toHaveLength(PAGES);
			}
			// Retries are of the page that failed, straight after it: the order of pages never goes back.
			for (let i = 1; i < pages.length; i++)
				expect(pages[i] - pages[i - 1]).toBeGreaterThanOrEqual(0);
		},
		60_000,
	);

	// Seeded at 50 %: pages 1–13 succeed after retries, page 14 fails four times in a row.
	it('a page that keeps failing: a clear error and nothing output, not the pages it had (Continue On Fail off)', async () => {
		await seed();
		await fault('status503', 0.5, 'GET');

		const res = await env.run(vendorList);

		expect(res.error).toBeDefined();
		expect(res.error!.message).toMatch(/503|SERVICE_UNAVAILABLE/);
		expect(String(res.error!.description)).toMatch(/Tried 4 times/);
		expect(res.items).toHaveLength(0);
		const log = await env.requests();
		const ok = log.filter((r) => r.status === 200).map((r) => Number(r.query.page));
		expect(ok.length).toBeGreaterThan(0); // it failed in the middle of the list
		const failedPage = Number(log[log.length - 1].query.page);
		expect(failedPage).toBe(Math.max(...ok) + 1);
		expect(log.filter((r) => Number(r.query.page) === failedPage).map((r) => r.status)).toEqual([
			503, 503, 503, 503,
		]);
		expect(Math.max(...log.map((r) => Number(r.query.page)))).toBe(failedPage);
	}, 60_000);
});

describe('rate limits and the wait budget (Options → Max Wait for Rate Limits)', () => {
	const withBudget = (parameters: INodeParameters, seconds = 2): INodeParameters => ({
		...parameters,
		options: { rateLimitWaitSeconds: seconds },
	});

	it.each([0, 2])(
		'listing, %i s budget: fails at once with a clear error when the next window (60 s) is further away',
		async (seconds) => {
			await env.sb.admin.seedVendors(250);
			await env.sb.admin.setRateLimit({ limit: 1, windowSeconds: 60 });
			const started = Date.now();

			const res = await env.run(withBudget(vendorList, seconds));

			const elapsed = Date.now() - started;
			expect(res.error).toBeDefined();
			expect(res.error!.message).toMatch(/RATE_LIMITED/);
			expect(res.error!.message).toMatch(`wait budget ${seconds}s`);
			expect(String(res.error!.description)).toMatch(
				/Max Wait for Rate Limits|Rate Limit Wait Budget/,
			);
			expect(res.items).toHaveLength(0); // not the first page alone
			expect(elapsed).toBeLessThan(10_000);
			// Page 1 used the window; the node saw it was used up and never sent page 2 into a 429.
			expect((await env.requests()).map((r) => r.status)).toEqual([200]);
		},
	);

	it('the default budget waits for the window (2 requests a second) to reset and returns every item', async () => {
		await env.sb.admin.seedVendors(300);
		await env.sb.admin.setRateLimit({ limit: 2, windowSeconds: 1 });
		const res = await env.run(vendorList);
		expect(res.error).toBeUndefined();
		expect(res.items).toHaveLength(300);
		const pages = (await env.requests()).filter((r) => r.status === 200).map((r) => r.query.page);
		expect(pages).toEqual(['1', '2', '3']);
	});

	it('the window already used up by another client: one 429, then the clear error', async () => {
		await env.sb.admin.setRateLimit({ limit: 1, windowSeconds: 60 });
		await env.api('GET', '/v1/vendors?limit=1'); // the other client
		const started = Date.now();

		const res = await env.run(withBudget(vendorCreate), {
			items: [{ name: 'a' }, { name: 'b' }],
			continueOnFail: true,
		});

		expect(Date.now() - started).toBeLessThan(10_000);
		expect(res.items).toHaveLength(2);
		for (const [i, item] of res.items.entries()) {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.error).toMatch(/RATE_LIMITED: still rate limited/);
		}
		// One 429 for item 0; item 1 knew the window was closed and sent nothing.
		expect((await env.requests()).map((r) => r.status)).toEqual([429]);
		expect(await env.api('GET', '/v1/vendors?limit=1').catch((e: Error) => e.message)).toMatch(
			/429/,
		);
	});
});

describe('a create the service processed before its answer was lost', () => {
	const create = {
		resource: 'receivable',
		operation: 'create',
		invoiceNumber: 'INV-LOST-1',
		amount: 125.5,
		additionalFields: { customerEmail: 'ap@globex.example' },
	};
	const receivablesCreated = async () =>
		(await env.sb.admin.getEvents()).filter((e) => e.type === 'receivable.created');
	const afterProcessing = (kind: FaultKind, count = 1) =>
		env.sb.admin.addFault({
			kind,
			count,
			method: 'POST',
			pathPrefix: '/v1/receivables',
			afterProcessing: true,
		});

	it.each<[FaultKind, RegExp]>([
		['status503', /^SERVICE_UNAVAILABLE/],
		['status500', /^INTERNAL_ERROR/],
		['reset', /^Could not reach the Business Finance service/],
		['cut', /^The answer of the Business Finance service broke off/],
		['malformed', /not valid JSON/],
	])(
		'%s: sent once, the receivable exists, and the error says so with no advice to send again',
		async (kind, message) => {
			await afterProcessing(kind);
			const res = await env.run(create);
			expect(res.error?.message).toMatch(message);
			const description = String(res.error?.description);
			expect(description).toMatch(
				/Outcome unknown: .*receivable may have been created.*receivable\.created event.*second invoice/,
			);
			expect(description).not.toMatch(RETRY_ADVICE);
			const posts = (await env.requests()).filter((r) => r.method === 'POST');
			expect(posts).toHaveLength(1);
			expect(await receivablesCreated()).toHaveLength(1);
		},
	);

	// what each operation gives (its lostAnswer) is what the node's error says: wired, no fallback
	it('a send, a payable create and a vendor create each say what that operation may have done', async () => {
		const sendable = {
			invoice_number: 'INV-LOST-S',
			amount: 10,
			customer_email: 'ap@globex.example',
		};
		const receivableId = (await env.api<IDataObject>('POST', '/v1/receivables', sendable)).id;
		const payee = { name: 'Lost payee', ...CRYPTO };
		const vendor = {
			__rl: true,
			mode: 'id',
			value: (await env.api('POST', '/v1/vendors', payee)).id,
		};
		const payable = { invoiceNumber: 'BILL-LOST-1', amount: 40, vendorId: vendor };
		const runs: Array<[INodeParameters, string, RegExp]> = [
			[
				{ resource: 'receivable', operation: 'send', receivableId } as INodeParameters,
				'/v1/receivables/',
				/customer may have been emailed.*receivable\.sent event.*a second time/,
			],
			[
				{ resource: 'payable', operation: 'create', ...payable } as INodeParameters,
				'/v1/payables',
				/payable may have been created.*payable\.created event.*second payable/,
			],
			[
				{ ...vendorCreate, name: 'Lost vendor' },
				'/v1/vendors',
				/vendor may have been created\. Search the vendors for its name.*second vendor/,
			],
		];
		for (const [parameters, pathPrefix, what] of runs) {
			await env.sb.admin.addFault({
				kind: 'status503',
				count: 1,
				method: 'POST',
				afterProcessing: true,
				pathPrefix,
			});
			const description = String((await env.run(parameters)).error?.description);
			expect(description).toMatch(what);
			expect(description).not.toMatch(RETRY_ADVICE);
		}
	});

	it("a cut answer with n8n's Retry On Fail on: the error says the outcome is unknown and to switch Retry On Fail off, never to check the credential", async () => {
		await afterProcessing('cut', 2);
		const settings = { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 };
		const res = await env.run(create, { settings });
		const description = String(res.error?.description);
		expect(description).toMatch(/Outcome unknown: .*Switch Retry On Fail off/);
		expect(description).not.toMatch(/credential|Base URL/);
	}, 30_000);

	it("with n8n's Retry On Fail on: n8n sends it again (a second invoice), and the error says to switch it off", async () => {
		await afterProcessing('status503', 2);
		const settings = { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 };
		const res = await env.run(create, { settings });
		expect(await receivablesCreated()).toHaveLength(2); // what the warning is for
		expect(String(res.error?.description)).toMatch(
			/Outcome unknown: .*Retry On Fail is on in this node's Settings: .*Switch Retry On Fail off/,
		);
	}, 30_000);

	it("with n8n's Retry On Fail on, a successful create shows the warning as a hint in the output pane; off, none", async () => {
		const on = await env.run(create, { settings: { retryOnFail: true } });
		expect(on.error).toBeUndefined();
		expect(on.hints).toEqual([
			expect.objectContaining({
				type: 'warning',
				message: expect.stringMatching(/^Retry On Fail is on/),
			}),
		]);
		const off = await env.run({ ...create, invoiceNumber: 'INV-LOST-2' });
		expect(off.hints).toEqual([]);
		const update = { resource: 'vendor', operation: 'getAll', returnAll: true, filters: {} };
		expect((await env.run(update, { settings: { retryOnFail: true } })).hints).toEqual([]);
	});
});

describe('a status change the service applied before its answer was lost', () => {
	const cancel = (id: string) => ({
		resource: 'receivable',
		operation: 'update',
		receivableId: id,
		updateFields: { status: 'cancelled' },
	});
	const patchFault = (kind: FaultKind) =>
		env.sb.admin.addFault({ kind, count: 1, method: 'PATCH', afterProcessing: true });

	it.each<FaultKind>(['status503', 'reset', 'cut'])(
		'%s: sent once (a second PATCH would be refused as an invalid transition); the error says the change may have been made',
		async (kind) => {
			const receivable = await env.api<IDataObject>('POST', '/v1/receivables', {
				invoice_number: `INV-CANCEL-${kind}`,
				amount: 10,
			});
			await patchFault(kind);
			const res = await env.run(cancel(String(receivable.id)));
			const description = String(res.error?.description);
			expect(description).toMatch(
				/Outcome unknown: .*receivable's status may have been changed to cancelled\. Look at the receivable in the dashboard/,
			);
			expect(description).not.toMatch(RETRY_ADVICE);
			expect(res.error?.message).not.toMatch(/INVALID_STATUS_TRANSITION/);
			const patches = (await env.requests()).filter((r) => r.method === 'PATCH');
			expect(patches).toHaveLength(1);
			const events = await env.sb.admin.getEvents();
			expect(events.filter((e) => e.type === 'receivable.cancelled')).toHaveLength(1);
		},
	);

	it('a notes-only update is still retried after a 503 (setting the same notes twice changes nothing)', async () => {
		const receivable = await env.api<IDataObject>('POST', '/v1/receivables', {
			invoice_number: 'INV-NOTES',
			amount: 10,
		});
		await env.sb.admin.addFault({ kind: 'status503', count: 1, method: 'PATCH' });
		const res = await env.run({
			...cancel(String(receivable.id)),
			updateFields: { notes: 'checked' },
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests()).filter((r) => r.method === 'PATCH')).toHaveLength(2);
	});
});
