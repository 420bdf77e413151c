import { ErrorCode, KnowingError } from '@knowing/graph';

export function invalidArgument(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.InvalidArgument, message, { source: 'wire', hint });
}

export function badFormat(message: string, cause?: unknown): KnowingError {
  return new KnowingError(ErrorCode.BadFormat, message, { source: 'wire', cause });
}

export function pluginInvalid(message: string, hint?: string): KnowingError {
  return new KnowingError(ErrorCode.PluginInvalid, message, { source: 'wire', hint });
}
