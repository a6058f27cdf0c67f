import { statusUpdateOperation } from '../statusUpdate';

export const { description, execute } = statusUpdateOperation({
	resource: 'payable',
	idParameter: 'payableId',
	idLabel: 'Payable ID',
	idPlaceholder: 'e.g. 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
	statuses: { pending_review: 'Pending Review', ready: 'Ready' },
	effects: { ready: 'approved for payment: the service schedules and pays it' },
	defaultStatus: 'ready',
	statusDescription:
		'Approve a payable for payment (Ready) or send it back to review. Scheduled, paid, failed or cancelled payables cannot be changed.',
});

export const toolDescription =
	'Changes a payable: its notes, its due date (YYYY-MM-DD), or its status (ready approves it: the service then schedules and pays it, and money leaves the account; pending_review sends it back). Needs the payable id (a UUID). Scheduled, paid, failed or cancelled payables cannot be changed. Returns the payable.';
