import { toErrorResponse } from "./api-error";

/** Wraps a route handler so that every thrown error becomes the JSON error envelope. */
export function route<A extends unknown[]>(handler: (...args: A) => Promise<Response> | Response) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
