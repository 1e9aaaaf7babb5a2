import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

const PREPARE_SHOWING = 'prepare_for_showing';

function preparation(personId: string | undefined): string {
  const who = personId
    ? `The showing is with person ${personId}: read them with get_person.`
    : 'Find my next showing with list_tasks (due today, then upcoming; tasks of type Showing or ' +
      'Appointment come first) and read its person with get_person.';
  return (
    `Prepare me for my next showing. ${who} Then give me, briefly: who they are and how to reach ` +
    'them; what they are looking for (price, areas, the properties of their lead events); what ' +
    'was said in the last notes and calls; their open tasks and deals (list_deals with their ' +
    'personId); and three questions worth asking. Change nothing in Hearth.'
  );
}

/** "Prepare for my next showing": a briefing built from the read-only tools. */
export function registerPrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [
      {
        name: PREPARE_SHOWING,
        title: 'Prepare for my next showing',
        description: 'A briefing on the person of your next showing, from their timeline',
        arguments: [
          {
            name: 'personId',
            description: 'The person of the showing (default: your next showing task)',
            required: false,
          },
        ],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    if (request.params.name !== PREPARE_SHOWING)
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const personId = request.params.arguments?.personId;
    if (personId !== undefined && !/^\d{1,15}$/.test(personId))
      throw new McpError(ErrorCode.InvalidParams, 'personId must be a person id (digits)');
    return {
      description: 'Prepare for my next showing',
      messages: [{ role: 'user', content: { type: 'text', text: preparation(personId) } }],
    };
  });
}
