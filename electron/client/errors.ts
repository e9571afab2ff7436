import { Value } from 'typebox/value';
import { ApiError, ErrorBody, type ErrorCode } from '../contract';

/** The gateway could not be reached, or answered outside the contract. */
export class GatewayError extends Error {
  override name = 'GatewayError';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'unauthorized';
}

/** A refusal as the ApiError the gateway described (with `retryAfterS` from Retry-After), or a GatewayError. */
export async function toApiError(response: Response): Promise<ApiError | GatewayError> {
  const body: unknown = await response.json().catch(() => null);
  const retryAfter = Number(response.headers.get('retry-after') ?? NaN);
  const details = Number.isFinite(retryAfter) ? { retryAfterS: retryAfter } : {};
  if (Value.Check(ErrorBody, body)) return new ApiError(body.error.code as ErrorCode, body.error.message, details);
  return new GatewayError(`The gateway answered ${response.status} ${response.statusText}.`);
}

export function jsonBody(response: Response): Promise<unknown> {
  return response.json().catch(() => {
    throw new GatewayError('The gateway sent a body that is not JSON.');
  });
}
