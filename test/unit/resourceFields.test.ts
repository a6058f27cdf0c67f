import { answerMeansNoRoute } from '../../nodes/BusinessFinance/helpers/assumedRoutes';
import {
	eventItemJson,
	forAgent,
	selectedForAgent,
	SIMPLIFIED_FIELDS,
	simplified,
	withStableColumns,
} from '../../nodes/BusinessFinance/helpers/resourceFields';
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';

describe('withStableColumns', () => {
	it.each(Object.keys(DOCUMENTED_FIELDS) as Array<keyof typeof DOCUMENTED_FIELDS>)(
		'%s: the API document’s fields, in its order, null where left out',
		(resource) => {
			const out = withStableColumns(resource, {}) as Record<string, unknown>;
			expect(Object.keys(out)).toEqual(DOCUMENTED_FIELDS[resource]);
			expect(Object.values(out).every((value) => value === null)).toBe(true);
		},
	);

	it('documented fields first in their order, null where left out, extra fields after, unchanged', () => {
		const out = withStableColumns('vendor', {
			risk_score: { level: 'low' },
			name: 'Acme',
			id: 'v1',
			payment_method: 'ach',
			email: undefined,
		});
		expect(Object.keys(out)).toEqual([...DOCUMENTED_FIELDS.vendor, 'risk_score']);
		expect(out).toMatchObject({ id: 'v1', name: 'Acme', email: null, wallet_address: null });
		expect((out as { risk_score: unknown }).risk_score).toEqual({ level: 'low' });
	});

	it('keeps a value of null, false or 0 as it came', () => {
		const out = withStableColumns('webhookEndpoint', {
			id: 'ep_1',
			disabled: false,
			description: null,
		});
		expect(out).toMatchObject({ disabled: false, description: null, url: null });
	});

	it('an extra field named like an Object property stays a plain field', () => {
		const input = JSON.parse('{"id":"t1","__proto__":{"polluted":true},"toString":"x"}');
		const out = withStableColumns('transaction', input) as Record<string, unknown>;
		expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.keys(out).slice(-2)).toEqual(['__proto__', 'toString']);
		expect(out.toString).toBe('x');
	});
});

describe('simplified', () => {
	it.each(Object.keys(SIMPLIFIED_FIELDS) as Array<keyof typeof SIMPLIFIED_FIELDS>)(
		'%s: at most 10 documented fields, in order, null where left out, nothing else',
		(resource) => {
			const fields = SIMPLIFIED_FIELDS[resource];
			expect(fields.length).toBeLessThanOrEqual(10);
			const documented = DOCUMENTED_FIELDS[resource];
			expect(fields.every((f) => documented.includes(f))).toBe(true);
			const out = simplified(resource, { id: 'x', extra: 1 });
			expect(Object.keys(out)).toEqual([...fields]);
			expect(out).toMatchObject({ id: 'x' });
		},
	);
});

describe('eventItemJson (the triggers’ data output)', () => {
	it.each([
		['receivable.paid', 'receivable'],
		['payable.failed', 'payable'],
		['vendor.updated', 'vendor'],
		['treasury.transaction.completed', 'transaction'],
	] as const)('%s → %s columns', (type, resource) => {
		const out = eventItemJson('data', { type, data: { id: 'x', custom: 1 } });
		expect(Object.keys(out)).toEqual([...DOCUMENTED_FIELDS[resource], 'custom']);
	});

	it('data of an unknown event type passes unchanged', () => {
		const data = { id: 'x' };
		expect(eventItemJson('data', { type: 'customer.created', data })).toBe(data);
		expect(eventItemJson('data', { data })).toBe(data);
	});
});

describe('answerMeansNoRoute', () => {
	// [what, a missing route?, status, code, the service's message]
	it.each([
		['405 (the path exists with other methods)', true, 405, 'METHOD_NOT_ALLOWED', 'x'],
		['501', true, 501, undefined, undefined],
		[
			'404 with an HTML page or an empty body (no API error shape)',
			true,
			404,
			undefined,
			undefined,
		],
		['404 NOT_FOUND naming a route', true, 404, 'NOT_FOUND', 'No route GET /v1/vendors/x'],
		['404 with a route code', true, 404, 'ROUTE_NOT_FOUND', 'nope'],
		['404 Express-style', true, 404, 'NOT_FOUND', 'Cannot GET /v1/vendors/x'],
		['404 naming the vendor', false, 404, 'NOT_FOUND', 'No vendor with id x'],
		['404 NOT_FOUND without words', false, 404, 'NOT_FOUND', 'Resource not found'],
		['404 NOT_FOUND without a message', false, 404, 'NOT_FOUND', undefined],
		['400', false, 400, 'VALIDATION_ERROR', 'route'],
		['500', false, 500, undefined, undefined],
	] as Array<[string, boolean, number, string | undefined, string | undefined]>)(
		'%s: a missing route %s',
		(_name, noRoute, status, code, serviceMessage) => {
			expect(answerMeansNoRoute({ status, code, serviceMessage })).toBe(noRoute);
		},
	);
});

describe('forAgent (the answer when the node runs as an agent tool)', () => {
	const vendor = {
		id: 'vnd_1',
		name: 'Acme',
		email: null,
		payment_method: 'ach',
		bank_name: 'First Bank',
		account_number_last4: '1234',
		wallet_address: null,
		updated_at: '2026-11-01T00:00:00.000Z',
	};

	it('keeps a vendor’s agent fields, in their order, and leaves out the null ones', () => {
		expect(Object.entries(forAgent('vendor', vendor) as object)).toEqual([
			['id', 'vnd_1'],
			['name', 'Acme'],
			['payment_method', 'ach'],
			['updated_at', '2026-11-01T00:00:00.000Z'],
		]);
	});

	it('keeps every field of a record without agent fields, the service’s own included, but no null', () => {
		const endpoint = {
			id: 'ep_1',
			url: 'https://x.example',
			description: '',
			filter_types: [],
			extra: 1,
			disabled: null,
		};
		expect(forAgent('webhookEndpoint', endpoint)).toEqual({
			id: 'ep_1',
			url: 'https://x.example',
			description: '',
			filter_types: [],
			extra: 1,
		});
		expect(forAgent(undefined, { balances: [], updated_at: null })).toEqual({ balances: [] });
	});
});

describe('selectedForAgent (a tool with Output: Selected Fields)', () => {
	const vendor = { name: 'Acme', id: 'vnd_1', email: null, bank_name: 'First Bank', extra: 1 };

	it('keeps the id first, then the named fields in their order, leaving out null and absent ones', () => {
		const picked = selectedForAgent(['bank_name', 'email', 'missing', 'name', 'id'], vendor);
		expect(Object.entries(picked as object)).toEqual([
			['id', 'vnd_1'],
			['bank_name', 'First Bank'],
			['name', 'Acme'],
		]);
	});

	it('answers only the record’s own fields: a name Object has, or __proto__, adds nothing', () => {
		const record = JSON.parse('{"id":"x","__proto__":{"polluted":true}}');
		const picked = selectedForAgent(
			['constructor', 'toString', '__proto__', 'hasOwnProperty'],
			record,
		);
		expect(picked).toEqual({ id: 'x' });
		expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
	});
});

it.each([withStableColumns, forAgent])('%p passes on what is not a record', (shape) => {
	expect(shape('vendor', 'text')).toBe('text');
	expect(shape('vendor', null)).toBeNull();
	expect(shape('vendor', [1])).toEqual([1]);
});
