/** The error type the routes throw; server.ts sends it as `{error: {code, message}}`. */

export class ApiError extends Error {
	constructor(
		readonly statusCode: number,
		readonly code: string,
		message: string,
	) {
		super(message);
	}
}

export const validationError = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);
export const invalidTransition = (message: string) =>
	new ApiError(409, 'INVALID_STATUS_TRANSITION', message);
