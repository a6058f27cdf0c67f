import { validateUuid } from '../../helpers/validators';
import { ItemCheck } from '../input';
import type { LostAnswer } from '../../transport';
import { bodyOperation } from '../operations';

export const lostAnswer: LostAnswer = {
	may: 'the customer may have been emailed',
	check:
		'look at the receivable in the dashboard (its sent_at), or for its receivable.sent event (Business Finance Trigger)',
	again: 'a second request may email the customer a second time',
};

export const { description, checkItem, execute, sendsOnce } = bodyOperation({
	resource: 'receivable',
	operation: 'send',
	method: 'POST',
	fields: [
		{
			displayName:
				'The service emails the invoice to the receivable’s customer email. Sending again sends a reminder.',
			name: 'sendNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Receivable ID',
			name: 'receivableId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
			description:
				'The ID (a UUID) of the receivable to send. It needs a customer email and must not be paid or cancelled.',
		},
	],
	read: (ctx, i) => ({ receivableId: ctx.getNodeParameter('receivableId', i, '') }),
	check: (p) => {
		const check = new ItemCheck();
		const id = check.take(validateUuid(p.receivableId, 'Receivable ID'));
		return check.result({ path: `/v1/receivables/${id}/send` });
	},
	lost: () => lostAnswer,
});

export const toolDescription =
	'Emails a receivable to its customer now; the email cannot be taken back and sending again sends another. Needs the receivable id (a UUID); the receivable needs a customer email and must not be paid or cancelled. Returns the receivable.';
