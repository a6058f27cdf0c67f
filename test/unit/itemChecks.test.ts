import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';
import { sendable, wasRefusedBeforeSending } from '../../nodes/BusinessFinance/actions/input';
import { checkParameters as createPayable } from '../../nodes/BusinessFinance/actions/payables/create.operation';
import { checkParameters as createReceivable } from '../../nodes/BusinessFinance/actions/receivables/create.operation';
import { checkParameters as createVendor } from '../../nodes/BusinessFinance/actions/vendors/create.operation';

const VENDOR_ID = '3f2b9c1e-8a4d-4c2e-9f1a-2b3c4d5e6f70';
const fields = (checked: { ok: boolean; problems?: Array<{ field: string }> }) =>
	checked.ok ? [] : checked.problems!.map((p) => p.field);

describe('receivable → create', () => {
	// Send Immediately needs a customer email: asked for once, whether missing or invalid.
	it.each([
		[
			{ customerId: 'abc', sendImmediately: true },
			['Invoice Number', 'Amount', 'Customer ID', 'Customer Email'],
		],
		[
			{ customerEmail: 'x@', sendImmediately: true },
			['Invoice Number', 'Amount', 'Customer Email'],
		],
	])('%j: every problem of the item, each field once', (additionalFields, expected) => {
		expect(fields(createReceivable({ invoiceNumber: '', amount: 0, additionalFields }))).toEqual(
			expected,
		);
	});
});

describe('payable → create', () => {
	it('joins the payee rule, the amount and the payment details in one list', () => {
		const checked = createPayable({
			invoiceNumber: 'B-1',
			amount: -1,
			vendorId: '',
			additionalFields: { paymentMethod: 'ach', accountNumber: '000123456789' },
		});
		expect(fields(checked)).toEqual(['Amount', 'Vendor Name', 'Routing Number']);
		// Details without a method are refused only when no vendor (whose method applies) is named.
		const details = { vendorName: 'V', accountNumber: '000123456789', routingNumber: '011000015' };
		const withoutMethod = (vendorId: string) =>
			createPayable({ invoiceNumber: 'B', amount: 1, vendorId, additionalFields: details });
		expect(fields(withoutMethod(''))).toEqual(['Payment Method']);
		expect(withoutMethod(VENDOR_ID).ok).toBe(true);
	});
});

describe('vendor → create', () => {
	it('lists a blank name, a bad email and each missing detail', () => {
		const checked = createVendor({
			name: ' ',
			paymentMethod: 'crypto',
			additionalFields: { email: 'no' },
		});
		expect(fields(checked)).toEqual(['Name', 'Email', 'Wallet Address', 'Wallet Chain']);
	});
});

it('an item its check refuses fails with its item index, marked as refused before sending', () => {
	// The mark is what tells an agent that nothing was sent (actions/router.ts errorItemJson).
	const node = { name: 'Business Finance', type: 'businessFinance', typeVersion: 1 };
	const ctx = { getNode: () => node } as unknown as IExecuteFunctions;
	const checked = createReceivable({ invoiceNumber: 'I', amount: 0, additionalFields: {} });
	let thrown: unknown;
	try {
		sendable(ctx, checked, 3);
	} catch (error) {
		thrown = error;
	}
	expect(thrown).toBeInstanceOf(NodeOperationError);
	expect((thrown as NodeOperationError).context.itemIndex).toBe(3);
	expect(wasRefusedBeforeSending(thrown as Error)).toBe(true);
});
