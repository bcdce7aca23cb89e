/**
 * Serving the MCP server over stdio: JSON-RPC on stdout and nothing else
 * there — logs go to the context's log (stderr).
 *
 * @module
 */
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "../core/errors.ts";
import { createMcpServer } from "./create_mcp_server.ts";
import type { McpContext } from "./mcp_context.ts";

/**
 * Runs the server on stdin/stdout until the client closes the connection.
 * A missing or old index starts a background refresh at once.
 *
 * @param ctx The server context.
 * @returns When the connection closes.
 */
export async function serveMcpStdio(ctx: McpContext): Promise<void> {
  // Building the instructions opens the index once: a missing, old or
  // unreadable one starts its background pass before any call.
  const server = createMcpServer(ctx);
  const transport = new StdioServerTransport();
  // The transport drops a line that is not JSON-RPC before the server sees
  // it. Say so on stderr and answer as JSON-RPC asks (-32700 not JSON,
  // -32600 not a message), so a client is not left waiting in silence.
  transport.onerror = (err: Error) => {
    const notJson = err instanceof SyntaxError;
    const invalid = err.name === "ZodError";
    ctx.log(
      `deja mcp: ${
        notJson
          ? `ignored a line that is not JSON (${messageOf(err)})`
          : invalid
          ? "ignored a line that is not a JSON-RPC message"
          : messageOf(err)
      }`,
    );
    if (!notJson && !invalid) return;
    const error = notJson
      ? { code: -32700, message: "Parse error: the line is not JSON" }
      : { code: -32600, message: "Invalid Request: not a JSON-RPC message" };
    // JSON-RPC 2.0 wants `"id": null` when the request's id could not be
    // read; the SDK's types know only string and number ids.
    transport.send(
      { jsonrpc: "2.0", id: null, error } as unknown as JSONRPCMessage,
    ).catch(() => {});
  };
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    // End of stdin is how a stdio client hangs up; the transport does not
    // report it, so close from here and exit 0 rather than leave a dangling
    // top-level await.
    process.stdin.once("end", () => void server.close().then(resolve, resolve));
    process.stdin.once(
      "close",
      () => void server.close().then(resolve, resolve),
    );
  });
  await server.connect(transport);
  // A request whose params do not fit the method's schema ("arguments" a
  // string) is refused by the SDK before any handler runs, as an internal
  // error (-32603) holding the schema's issue list; JSON-RPC calls it
  // invalid params (-32602).
  const send = transport.send.bind(transport);
  transport.send = (
    message: JSONRPCMessage,
    options?: Parameters<typeof send>[1],
  ) => send(asInvalidParams(message), options);
  ctx.log(
    `deja mcp: serving on stdio as ${ctx.actor} (scopes ${
      ctx.scopes.join(",")
    })`,
  );
  await closed;
}

/**
 * The SDK's answer to params that fail a method's schema (-32603 with the
 * issue list as its message) as JSON-RPC's invalid params (-32602), the
 * issues said in one line; any other message unchanged.
 *
 * @param message An outgoing message.
 * @returns The message to send.
 */
function asInvalidParams(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || message.error.code !== -32603) return message;
  let issues: unknown;
  try {
    issues = JSON.parse(message.error.message);
  } catch {
    return message;
  }
  if (
    !Array.isArray(issues) || issues.length === 0 ||
    !issues.every((i) =>
      typeof i === "object" && i !== null && Array.isArray(i.path) &&
      i.path[0] === "params" && typeof i.message === "string"
    )
  ) return message;
  const said = (issues as Array<{ path: unknown[]; message: string }>)
    .map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  return {
    ...message,
    error: { code: -32602, message: `Invalid params: ${said}` },
  };
}
