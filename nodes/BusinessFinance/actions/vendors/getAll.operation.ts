import { listOperation } from '../operations';

export const { description, execute, nothingListed } = listOperation({
	resource: 'vendor',
	operation: 'getAll',
	path: '/v1/vendors',
	item: 'vendor',
	plural: 'vendors',
	filters: [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. acme',
			description: 'Only vendors whose name or email contains this text (not case-sensitive)',
		},
	],
	query: (_check, filters) =>
		typeof filters.search === 'string' ? { search: filters.search.trim() } : {},
});

export const toolDescription =
	'Lists vendors, optionally only those whose name or email contains a search text. Returns each vendor’s id, name, email, payment method and when it was last updated; use the id for payables.';
