import type { INodeParameters } from 'n8n-workflow';
import { byId, useEnv, VALID } from './support';

const env = useEnv();
let vendorId: string;
beforeEach(async () => {
	const vendor = await env.api('POST', '/v1/vendors', {
		name: 'Acme Supplies',
		payment_method: 'ach',
		account_number: VALID.account,
		routing_number: VALID.routing,
	});
	vendorId = vendor.id as string;
});

const CREATE = { resource: 'payable', operation: 'create', invoiceNumber: 'BILL-1' };
const create = async (parameters: INodeParameters) => await env.runOk({ ...CREATE, ...parameters });

describe('payable: create', () => {
	it('with a vendor picked from the list (resource locator), only the fields set', async () => {
		await env.runOne(
			{
				...CREATE,
				amount: 99.99,
				vendorId: { __rl: true, mode: 'list', value: vendorId, cachedResultName: 'Acme Supplies' },
				additionalFields: { dueDate: '2026-12-01', notes: 'Q4 supplies', vendorEmail: '' },
			},
			'POST /v1/payables 201',
			{
				invoice_number: 'BILL-1',
				amount: 99.99,
				vendor_id: vendorId,
				due_date: '2026-12-01',
				notes: 'Q4 supplies',
			},
			{
				vendor_id: vendorId,
				vendor_name: 'Acme Supplies',
				status: 'pending_review',
				payment_method: 'ach',
			},
		);
	});

	it('without a vendor id but with a vendor name and wire details (normalised IBAN and SWIFT)', async () => {
		const { requests } = await create({
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
		expect(requests[0].body).toEqual({
			invoice_number: 'BILL-1',
			amount: 2500,
			vendor_name: 'Initech GmbH',
			vendor_email: 'ap@initech.de',
			payment_method: 'wire',
			account_number: VALID.account,
			iban: VALID.iban,
			swift_code: VALID.swift,
			bank_name: 'Deutsche Bank',
		});
	});

	// Details of another method are left out by the code vendor create shares (vendor.test.ts).
	it('without a method every detail is checked and sent (the vendor’s method applies)', async () => {
		const additionalFields = {
			accountNumber: VALID.account,
			routingNumber: VALID.routing,
			bankName: 'First',
		};
		const { requests } = await create({ amount: 12, vendorId: byId(vendorId), additionalFields });
		expect(requests[0].body).toEqual({
			invoice_number: 'BILL-1',
			amount: 12,
			vendor_id: vendorId,
			account_number: VALID.account,
			routing_number: VALID.routing,
			bank_name: 'First',
		});
	});
});
