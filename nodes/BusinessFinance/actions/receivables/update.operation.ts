import { statusUpdateOperation } from '../statusUpdate';

export const { description, execute } = statusUpdateOperation({
	resource: 'receivable',
	idParameter: 'receivableId',
	idLabel: 'Receivable ID',
	idPlaceholder: 'e.g. 5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
	statuses: { draft: 'Draft', cancelled: 'Cancelled' },
	defaultStatus: 'cancelled',
	statusDescription:
		'Cancel a draft, sent or overdue receivable, or return a cancelled or sent one to draft. Paid receivables cannot be changed.',
});

export const toolDescription =
	'Changes a receivable: its notes, its due date (YYYY-MM-DD), or its status (cancelled, or back to draft). Needs the receivable id (a UUID). Paid receivables cannot be changed. Sends no email. Returns the receivable.';
