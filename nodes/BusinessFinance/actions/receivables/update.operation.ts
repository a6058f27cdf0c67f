import { byName } from '../../descriptions/order';
import { RECEIVABLE_WRITABLE_STATUSES } from '../../helpers/constants';
import { statusUpdateOperation } from '../statusUpdate';

const STATUS_LABELS: Record<string, string> = { draft: 'Draft', cancelled: 'Cancelled' };

export const { description, execute } = statusUpdateOperation({
	resource: 'receivable',
	idParameter: 'receivableId',
	idLabel: 'Receivable ID',
	idPlaceholder: 'e.g. 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
	statusField: {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: byName(
			RECEIVABLE_WRITABLE_STATUSES.map((value) => ({ name: STATUS_LABELS[value], value })),
		),
		default: 'cancelled',
		description:
			'Cancel a draft, sent or overdue receivable, or return a cancelled or sent one to draft. Paid receivables cannot be changed.',
	},
});

export const toolDescription =
	'Changes a receivable: its notes, its due date (YYYY-MM-DD), or its status (cancelled, or back to draft). Needs the receivable id (a UUID). Paid receivables cannot be changed. Sends no email. Returns the receivable.';
