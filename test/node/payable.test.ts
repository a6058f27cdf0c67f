import type { INodeParameters } from 'n8n-workflow';
import { byId, useEnv, VALID } from './support';

const env = useEnv('clear');
let vendorId: string;
beforeAll(async () => {
	const vendor = await env.api('POST', '/v1/vendors', {
		name: 'Acme Supplies',
		payment_method: 'ach',
		account_number: VALID.account,
		routing_number: VALID.routing,
	});
	vendorId = vendor.id as string;
});

describe('payable: create', () => {
	it('with a vendor picked by id (resource locator), only the fields set', async () => {
		const res = await env.run({
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'BILL-1',
			amount: 99.99,
			vendorId: byId(vendorId),
			additionalFields: { dueDate: '2026-12-01', notes: 'Q4 supplies', vendorEmail: '' },
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs).toHaveLength(1);
		expect(reqs[0]).toMatchObject({ method: 'POST', path: '/v1/payables', status: 201 });
		expect(reqs[0].body).toEqual({
			invoice_number: 'BILL-1',
			amount: 99.99,
			vendor_id: vendorId,
			due_date: '2026-12-01',
			notes: 'Q4 supplies',
		});
		expect(res.items).toHaveLength(1);
		expect(res.items[0].pairedItem).toEqual({ item: 0 });
		expect(res.items[0].json).toMatchObject({
			invoice_number: 'BILL-1',
			vendor_id: vendorId,
			vendor_name: 'Acme Supplies',
			status: 'pending_review',
			payment_method: 'ach',
		});
	});

	it('with a vendor from the list mode', async () => {
		const res = await env.run({
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'BILL-L',
			amount: 1,
			vendorId: { __rl: true, mode: 'list', value: vendorId, cachedResultName: 'Acme Supplies' },
			additionalFields: {},
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			invoice_number: 'BILL-L',
			amount: 1,
			vendor_id: vendorId,
		});
	});

	it('without a vendor id but with a vendor name and wire details (normalised IBAN and SWIFT)', async () => {
		const res = await env.run({
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'BILL-2',
			amount: 2500,
			vendorId: { __rl: true, mode: 'list', value: '' },
			additionalFields: {
				vendorName: 'Initech GmbH',
				vendorEmail: 'ap@initech.de',
				paymentMethod: 'wire',
				accountNumber: VALID.account,
				iban: 'de89 3704 0044 0532 0130 00',
				swiftCode: 'deutdeff',
				bankName: 'Deutsche Bank',
			},
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			invoice_number: 'BILL-2',
			amount: 2500,
			vendor_name: 'Initech GmbH',
			vendor_email: 'ap@initech.de',
			payment_method: 'wire',
			account_number: VALID.account,
			iban: VALID.iban,
			swift_code: VALID.swift,
			bank_name: 'Deutsche Bank',
		});
		const out = res.items[0].json;
		expect(out).toMatchObject({
			vendor_name: 'Initech GmbH',
			payment_method: 'wire',
			vendor_id: null,
		});
		// Payables never return bank details.
		expect(JSON.stringify(out)).not.toContain(VALID.account);
		expect(out).not.toHaveProperty('iban');
	});

	it('with crypto details', async () => {
		const res = await env.run({
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'BILL-3',
			amount: 0.5,
			vendorId: byId(vendorId),
			additionalFields: { paymentMethod: 'crypto', walletAddress: VALID.evm, walletChain: 'base' },
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			invoice_number: 'BILL-3',
			amount: 0.5,
			vendor_id: vendorId,
			payment_method: 'crypto',
			wallet_address: VALID.evm,
			wallet_chain: 'base',
		});
		expect(res.items[0].json).toMatchObject({ payment_method: 'crypto' });
	});
});

describe('payable: create, payment details and the method', () => {
	const create = (additionalFields: INodeParameters) =>
		env.run({
			resource: 'payable',
			operation: 'create',
			invoiceNumber: 'BILL-M',
			amount: 12,
			vendorId: byId(vendorId),
			additionalFields,
		});

	it('details of another method (hidden in the editor) are not sent', async () => {
		const res = await create({
			paymentMethod: 'wire',
			accountNumber: VALID.account,
			iban: VALID.iban,
			walletAddress: 'not a wallet',
			walletChain: 'solana',
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toEqual({
			invoice_number: 'BILL-M',
			amount: 12,
			vendor_id: vendorId,
			payment_method: 'wire',
			account_number: VALID.account,
			iban: VALID.iban,
		});
	});

	it('without a method every detail is shown, checked and sent (the vendor’s method applies)', async () => {
		const res = await create({
			accountNumber: VALID.account,
			routingNumber: VALID.routing,
			bankName: 'First',
		});
		expect(res.error).toBeUndefined();
		expect((await env.requests())[0].body).toMatchObject({
			account_number: VALID.account,
			routing_number: VALID.routing,
			bank_name: 'First',
		});
	});
});

describe('payable: update', () => {
	it('PATCH with only the set fields', async () => {
		const created = await env.api('POST', '/v1/payables', {
			invoice_number: 'B-U',
			amount: 10,
			vendor_id: vendorId,
		});
		await env.clear();
		const res = await env.run({
			resource: 'payable',
			operation: 'update',
			payableId: String(created.id),
			updateFields: { status: 'ready', notes: '' },
		});
		expect(res.error).toBeUndefined();
		const reqs = await env.requests();
		expect(reqs).toHaveLength(1);
		expect(reqs[0]).toMatchObject({
			method: 'PATCH',
			path: `/v1/payables/${String(created.id)}`,
			status: 200,
		});
		expect(reqs[0].body).toEqual({ status: 'ready' });
		expect(res.items).toEqual([
			{
				json: expect.objectContaining({ id: created.id, status: 'ready' }),
				pairedItem: { item: 0 },
			},
		]);
	});
});
