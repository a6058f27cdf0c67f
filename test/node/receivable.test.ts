import { useEnv } from './support';

const env = useEnv();

describe('receivable: create', () => {
	it('sends only the fields set, trimmed, in snake_case, dates cut to the day, Send Immediately as the flag; outputs the data object', async () => {
		const output = await env.runOne(
			{
				resource: 'receivable',
				operation: 'create',
				invoiceNumber: ' INV-1 ',
				amount: 125.5,
				additionalFields: {
					customerName: 'Globex',
					customerEmail: ' billing@globex.com ',
					customerId: '7D1E4F0A-2B3C-4D5E-8F90-A1B2C3D4E5F6',
					dueDate: '2026-12-31T00:00:00',
					notes: '',
					sendImmediately: true,
				},
			},
			'POST /v1/receivables 201',
			{
				invoice_number: 'INV-1',
				amount: 125.5,
				customer_name: 'Globex',
				customer_email: 'billing@globex.com',
				customer_id: '7d1e4f0a-2b3c-4d5e-8f90-a1b2c3d4e5f6',
				due_date: '2026-12-31',
				send_immediately: true,
			},
			{ invoice_number: 'INV-1', currency: 'USD', status: 'sent' },
		);
		expect(output).not.toHaveProperty('data');
	});
});

describe('receivable: send and update', () => {
	let id: string;
	beforeEach(async () => {
		const created = await env.api('POST', '/v1/receivables', {
			invoice_number: 'INV-S',
			amount: 50,
			customer_email: 'c@d.co',
		});
		id = created.id as string;
	});

	it('send: POST /send without a body to the id as the service writes it, outputs the sent receivable', async () => {
		const send = { resource: 'receivable', operation: 'send', receivableId: id.toUpperCase() };
		await env.runOne(send, `POST /v1/receivables/${id}/send 200`, undefined, {
			id,
			status: 'sent',
		});
		const [request] = await env.requests();
		expect(request.body === null || JSON.stringify(request.body) === '{}').toBe(true);
	});

	// The update code payable update shares (actions/statusUpdate.ts).
	it('update: PATCH with only the set fields, an empty one left out', async () => {
		const updateFields = { status: 'cancelled', notes: '', dueDate: '2027-01-15' };
		await env.runOne(
			{ resource: 'receivable', operation: 'update', receivableId: id, updateFields },
			`PATCH /v1/receivables/${id} 200`,
			{ status: 'cancelled', due_date: '2027-01-15' },
			{ id, status: 'cancelled', due_date: '2027-01-15' },
		);
	});
});
