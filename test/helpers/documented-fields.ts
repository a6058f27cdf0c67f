/** Every field the API document gives each resource, in its order: what the tests expect. */
const fields = (names: string): readonly string[] => names.split(' ');

export const DOCUMENTED_FIELDS = {
	receivable: fields(
		'id invoice_number customer_id customer_name customer_email amount currency due_date status notes sent_at paid_at created_at updated_at',
	),
	payable: fields(
		'id invoice_number vendor_id vendor_name amount currency due_date status notes payment_method created_at updated_at',
	),
	vendor: fields(
		'id name email payment_method bank_name account_name account_number_last4 routing_number_last4 wallet_address wallet_chain created_at updated_at',
	),
	transaction: fields('id type amount currency network status reference created_at completed_at'),
	webhookEndpoint: fields('id url description filter_types disabled created_at updated_at'),
};
