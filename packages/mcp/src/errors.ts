import { ErrorCode, KnowingError } from '@knowing/graph';

export function invalidArgument(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'mcp', ...(hint ? { hint } : {}) });
}

export function notFound(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.NotFound, message, { source: 'mcp', ...(hint ? { hint } : {}) });
}
