import { ERROR_CODES, type ErrorCode } from "../domain/errors.js";
import { errorHelp } from "../http/errors.js";

// TRANSITION (helper H): generate.ts reads errorHelp directly once its pending edits are committed.
export const ERROR_HELP = Object.fromEntries(ERROR_CODES.map((code) => [code, errorHelp(code)])) as Record<
  ErrorCode,
  string
>;
