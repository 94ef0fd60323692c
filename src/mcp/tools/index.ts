import type { McpTool } from '../tool';
import { catalogTools } from './catalog';
import { customerTools } from './customers';
import { orderTools } from './orders';
import { storeTools } from './store';

/** Every MCP tool (docs/design.md "MCP": exactly 12, all read-only); the server is built from this table. */
export const mcpTools: McpTool[] = [...storeTools, ...catalogTools, ...orderTools, ...customerTools];
