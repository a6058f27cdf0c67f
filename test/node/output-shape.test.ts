import type { INodeParameters } from 'n8n-workflow';
import { SIMPLIFIED_FIELDS } from '../../nodes/BusinessFinance/helpers/resourceFields';
import { DOCUMENTED_FIELDS } from '../helpers/documented-fields';
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server';
import { byId, UNKNOWN_UUID, useEnv, VALID } from './support';

const VENDOR_ID = '3f9c1e2a-8b7d-4c6e-9a51-0d2f4b6c8e10';

/** A service that meets the spec but answers only what it has, plus a field of its own. */
type Answer = { status: number; body: string; type?: string };
let scripted: (method: string, path: string) => Answer;
let server: ScriptedServer;

const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body) });
const sparseVendors = [
	{
		updated_at: '2026-01-03T00:00:00Z',
		id: 'a0000000-0000-4000-8000-000000000001',
		name: 'No email',
		payment_method: 'crypto',
		wallet_address: VALID.evm,
		risk: 'low',
	},
	{ id: 'a0000000-0000-4000-8000-000000000002', name: 'Bare', payment_method: 'wire', tags: ['x'] },
];

function defaultAnswers(method: string, path: string): Answer {
	const route = `${method} ${path.split('?')[0]}`;
	if (route === 'GET /v1/vendors')
		return json(200, {
			data: sparseVendors,
			meta: { page: 1, limit: 100, total: 2, has_more: false },
		});
	if (route === `GET /v1/vendors/${VENDOR_ID}`)
		return json(200, { data: { name: 'One', id: VENDOR_ID, region: 'eu' } });
	if (route === 'GET /v1/treasury/transactions') {
		return json(200, {
			data: [
				{ id: 't1', type: 'deposit', amount: 5, chain_fee: 0.1 },
				{ completed_at: null, id: 't2', amount: 6 },
			],
			meta: { has_more: false },
		});
	}
	if (route === 'POST /v1/receivables')
		return json(201, {
			data: { id: 'r1', amount: 10, invoice_number: 'I-1', status: 'draft', pdf_url: 'https://x' },
		});
	if (route === 'GET /v1/webhooks/ep_1')
		return json(200, { data: { id: 'ep_1', url: 'https://x.example/hook', secret_hint: 'abc' } });
	return json(500, { error: { code: 'UNEXPECTED', message: route } });
}

const env = useEnv();
beforeAll(async () => {
	server = await scriptedServer((req, res) => {
		const answer = scripted(req.method ?? 'GET', req.url ?? '/');
		res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
		res.end(answer.body);
	});
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => {
	scripted = defaultAnswers;
});

const runScripted = async (parameters: INodeParameters) =>
	await env.run(parameters, { baseUrl: server.baseUrl });

// [operation, parameters, the keys of each output item]: the documented fields in their order (null
// if left out), then its own; with Simplify only the simplified fields. One per shared code path.
const { vendor, transaction, receivable, webhookEndpoint } = DOCUMENTED_FIELDS;
const vendorGet = { resource: 'vendor', operation: 'get', vendorId: byId(VENDOR_ID) };
const vendorList = { resource: 'vendor', operation: 'getAll', returnAll: true };
it.each([
	[
		'vendor → getAll',
		vendorList,
		[
			[...vendor, 'risk'],
			[...vendor, 'tags'],
		],
	],
	[
		'vendor → getAll, Simplify',
		{ ...vendorList, simplify: true },
		Array(2).fill(SIMPLIFIED_FIELDS.vendor),
	],
	[
		'treasury → getTransactions',
		{ resource: 'treasury', operation: 'getTransactions', returnAll: true },
		[[...transaction, 'chain_fee'], transaction],
	],
	['vendor → get', vendorGet, [[...vendor, 'region']]],
	['vendor → get, Simplify', { ...vendorGet, simplify: true }, [SIMPLIFIED_FIELDS.vendor]],
	[
		'receivable → create',
		{ resource: 'receivable', operation: 'create', invoiceNumber: 'I-1', amount: 10 },
		[[...receivable, 'pdf_url']],
	],
	[
		'webhookEndpoint → get',
		{ resource: 'webhookEndpoint', operation: 'get', webhookEndpointId: 'ep_1' },
		[[...webhookEndpoint, 'secret_hint']],
	],
] as Array<[string, INodeParameters, string[][]]>)(
	'%s: stable columns from a service that leaves fields out',
	async (_name, parameters, keys) => {
		const res = await runScripted(parameters);
		expect(res.error).toBeUndefined();
		expect(res.items.map((item) => Object.keys(item.json))).toEqual(keys);
	},
);

describe('vendor → get', () => {
	it('an unknown id: "No vendor with ID", and what to check', async () => {
		const res = await env.run({
			resource: 'vendor',
			operation: 'get',
			vendorId: byId(UNKNOWN_UUID),
		});
		expect(res.error?.message).toMatch(new RegExp(`^No vendor with ID ${UNKNOWN_UUID}`));
		expect(res.error?.description).toMatch(/deleted/);
		expect(res.error?.description).toMatch(/NOT_FOUND/);
	});

	it('a service without the route (404 with an HTML page): says so and suggests Get Many with a search', async () => {
		scripted = (method, path) =>
			method === 'GET' && path.startsWith('/v1/vendors/')
				? { status: 404, type: 'text/html', body: '<!doctype html><title>Not Found</title>' }
				: defaultAnswers(method, path);
		const res = await runScripted({
			resource: 'vendor',
			operation: 'get',
			vendorId: byId(UNKNOWN_UUID),
		});
		expect(res.error?.message).toMatch(/^This service does not offer getting one vendor by ID/);
		expect(res.error?.description).toMatch(/Get Many with a Search/);
	});
});
