import { Type } from '@sinclair/typebox';
import type { AnyTool } from './tool.js';

/** The argument a destructive tool needs: the assistant asks the user first. */
export const Confirm = Type.Literal(true, {
  description: 'true once the user has agreed to this change',
});

/** Why a destructive tool was not run, or null when it may run. */
export function missingConfirmation(tool: AnyTool, args: Record<string, unknown>): string | null {
  if (!tool.annotations.destructiveHint || args.confirm === true) return null;
  return `${tool.name} changes existing data: tell the user what will change and call it again with confirm: true once they agree`;
}
